import { csvCell, csvRow, csvText } from '../../server/lib/csv';

describe('CSV cells (RFC 4180)', () => {
  it('when a cell holds a comma, a quote or a line break, then it is quoted with its quotes doubled; otherwise it is as it is', () => {
    expect(csvCell('Tune')).toBe('Tune');
    expect(csvCell('')).toBe('');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell('-0.045000')).toBe('-0.045000');
  });

  it('when a row is written, then its cells are escaped and it ends with CRLF', () => {
    expect(csvRow(['2025-01-01', 'a,b', '-1.000000', ''])).toBe('2025-01-01,"a,b",-1.000000,\r\n');
  });

  it('when typed text starts as a spreadsheet formula would, then it gets a leading quote; other text is untouched', () => {
    expect(['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx', 'Sunset', "'quoted", ' =spaced'].map(csvText)).toEqual([
      "'=SUM(A1)",
      "'+1",
      "'-2",
      "'@cmd",
      "'\tx",
      "'\rx",
      'Sunset',
      "'quoted",
      ' =spaced',
    ]);
  });
});
