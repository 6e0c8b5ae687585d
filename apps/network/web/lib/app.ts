import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
}

/** Guildline's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const network = defineApp<User>({
  name: "network",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone FROM users u",
});
