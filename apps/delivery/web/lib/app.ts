import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  tip_percent: number;
  member_since: string;
}

/** DashBite's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const delivery = defineApp<User>({
  name: "delivery",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.tip_percent, u.member_since FROM users u",
});
