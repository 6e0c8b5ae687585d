import { stays } from "./app";
/** The one connection to the seeded database (see ./app). */
export const db = stays.db;
