import type { AppContext } from "@persona/platform/context";
import { shop } from "./app";

/** The app's context (see @persona/platform/context): now, language and formatting from its database's meta. */
export type ShopContext = AppContext;
export const shopContext = shop.context;
