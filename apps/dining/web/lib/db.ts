import { dining } from "./app";
/** The one connection to the seeded database (see ./app). */
export const db = dining.db;
