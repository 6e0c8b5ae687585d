import { shop } from "./app";
export type { AppContext as ShopContext } from "@persona/platform/context";
export const shopContext = shop.context;
