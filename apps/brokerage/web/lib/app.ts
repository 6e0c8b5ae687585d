import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
}

/** Tidewell's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const brokerage = defineApp<User>({
  name: "brokerage",
  userSql: "SELECT u.id, u.username, u.full_name, u.email FROM users u",
});
