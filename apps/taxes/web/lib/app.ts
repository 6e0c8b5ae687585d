import { defineApp } from "@persona/platform/app";

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

/** Ledgerleaf Tax's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const taxes = defineApp<User>({
  name: "taxes",
  userSql:
    "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.birth_date, u.street, u.city, u.region, u.postal_code, u.occupation, " +
    "u.tax_id_last4, u.bank_last4 FROM users u",
});
