import { appContext, type AppContext } from "@persona/platform/context";
import { db } from "./db";

/** The app's context (see @persona/platform/context): now, language and formatting from its database's meta. */
export type ShopContext = AppContext;

export function shopContext(): ShopContext {
  return appContext(db());
}
