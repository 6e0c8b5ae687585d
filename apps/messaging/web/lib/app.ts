import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  phone: string;
  email: string;
}

/** Parley's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const messaging = defineApp<User>({
  name: "messaging",
  userSql: "SELECT u.id, u.username, u.full_name, u.phone, u.email FROM users u",
});
