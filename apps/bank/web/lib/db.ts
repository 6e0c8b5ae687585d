import { bank } from "./app";
/** The one connection to the seeded bank database (see ./app). */
export const db = bank.db;
