import { airline } from "./app";
/** The one connection to the seeded database (see ./app). */
export const db = airline.db;
