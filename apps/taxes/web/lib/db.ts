import { taxes } from "./app";
/** The one connection to the seeded database (see ./app). */
export const db = taxes.db;
