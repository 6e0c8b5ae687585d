import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  opened_at: string;
}

/** Hunchline's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const markets = defineApp<User>({
  name: "markets",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.opened_at FROM users u",
});
