import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
  given_name: string;
  surname: string;
  email: string;
  home_airport: string;
  seat_preference: string;
}

/** Meridian Air's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml.
 * The username is the MileagePass number, upper case. */
export const airline = defineApp<User>({
  name: "airline",
  userSql: "SELECT u.id, u.username, u.full_name, u.given_name, u.surname, u.email, u.home_airport, u.seat_preference FROM users u",
  normalizeUsername: (u) => u.trim().toUpperCase(),
});
