import { markets } from "./app";
export type { AppContext as HunchContext } from "@persona/platform/context";
export const hunchContext = markets.context;
