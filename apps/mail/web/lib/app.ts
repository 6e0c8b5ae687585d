import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  work_email: string | null;
  signature: string;
}

/** Mailbox's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const mail = defineApp<User>({
  name: "mail",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.work_email, u.signature FROM users u",
});
