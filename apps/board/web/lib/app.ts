import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  person_id: number;
}

/** Cairn's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const board = defineApp<User>({
  name: "board",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.person_id FROM users u",
});
