import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { taxContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  birth_date: string | null;
  street: string;
  city: string;
  region: string;
  postal_code: string;
  occupation: string;
  tax_id_last4: string;
  bank_last4: string;
}

/** Sign-in to Ledgerleaf Tax: the `ll_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "ll_session",
  now: () => taxContext().now,
  userSql:
    "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.birth_date, u.street, u.city, u.region, u.postal_code, u.occupation, u.tax_id_last4, u.bank_last4 FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
