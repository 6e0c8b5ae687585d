import type { AppContext } from "@persona/platform/context";
import { markets } from "./app";

/** The app's context (see @persona/platform/context): now, language and formatting from its database's meta. */
export type HunchContext = AppContext;
export const hunchContext = markets.context;
