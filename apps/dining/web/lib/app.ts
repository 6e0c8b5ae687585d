import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  home_city: string;
  points: number;
}

/** TableTime's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const dining = defineApp<User>({
  name: "dining",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.home_city, u.points FROM users u",
});
