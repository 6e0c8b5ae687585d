import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  person_id: number;
  username: string;
  name: string;
  email: string;
  title: string;
  status_emoji: string;
  status_text: string;
  status_expires_at: string | null;
}

/** Huddle's server side (@persona/platform/app): database, sessions, context and sign-in from its app.yaml. */
export const workchat = defineApp<User>({
  name: "workchat",
  userSql:
    "SELECT u.id, u.person_id, u.username, p.name, p.email, p.title, u.status_emoji, u.status_text, u.status_expires_at " +
    "FROM users u JOIN people p ON p.id = u.person_id",
});
