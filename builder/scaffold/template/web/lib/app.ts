import { defineApp } from "@persona/platform/app";

export interface User {
  id: number;
  username: string;
  full_name: string;
}

/**
 * __TITLE__'s server side (@persona/platform/app): its database, sessions, context, sign-in route and page, all
 * configured from app.yaml (cookie, title, database file) and models.py (tables) at site assembly.
 */
export const app = defineApp<User>({ name: "__APP__", userSql: "SELECT u.id, u.username, u.full_name FROM users u" });

export const { db, now, requireUser, requestUser } = app;
