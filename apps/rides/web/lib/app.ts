import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  rating_x100: number;
  member_since: string;
}

/** ZipRide's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const rides = defineApp<User>({
  name: "rides",
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.rating_x100, u.member_since FROM users u",
});
