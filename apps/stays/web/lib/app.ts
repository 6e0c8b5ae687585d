import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  loyalty_number: string | null;
}

/** Bramblestay's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const stays = defineApp<User>({
  name: "stays",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.loyalty_number FROM users u",
});
