/**
 * CSV as RFC 4180 writes it: a cell holding a comma, a double quote or a line break is quoted, its quotes doubled;
 * rows end with CRLF. Text that people typed (a piece's title) may be opened by a spreadsheet, which runs a cell that
 * starts with `=`, `+`, `-` or `@` as a formula: such text is written with a leading `'`, as OWASP advises against
 * CSV injection. Our own figures are written as they are (a negative amount starts with `-` and must stay a number).
 */

const NEEDS_QUOTES = /[",\r\n]/;
const STARTS_A_FORMULA = /^[=+\-@\t\r]/;

/** One cell: quoted only when it must be. */
export const csvCell = (value: string) => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Text people typed, made safe to open in a spreadsheet: never read as a formula. */
export const csvText = (value: string) => (STARTS_A_FORMULA.test(value) ? `'${value}` : value);

/** One row, its cells escaped, ended by CRLF. */
export const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;
