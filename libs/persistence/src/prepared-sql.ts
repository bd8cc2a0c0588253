/** Transitional: the runner moved to statements/; the repositories not yet converted import it here. */
export { PreparedSql } from './statements/prepared-sql.js';
