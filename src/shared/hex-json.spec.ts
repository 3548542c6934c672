import fc from 'fast-check';
import { HexJsonError, MAX_HEX_INPUT, decodeHexJson, encodeHexJson } from './hex-json';

describe('hex JSON (§7 input form)', () => {
  it('is the lower-case hex of the UTF-8 JSON text, as Node computes it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const hex = encodeHexJson(value);
        expect(hex).toBe(Buffer.from(JSON.stringify(value), 'utf8').toString('hex'));
      }),
    );
  });

  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(decodeHexJson(encodeHexJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('leaves an absent input absent', () => {
    expect(encodeHexJson(undefined)).toBeUndefined();
    expect(decodeHexJson(undefined)).toBeUndefined();
    expect(decodeHexJson(null)).toBeUndefined();
  });

  it.each([
    ['not hex', 'zz'],
    ['odd length', '7b7'],
    ['upper case', '7B7D'],
    ['not a string', 42],
    ['oversized', '20'.repeat(MAX_HEX_INPUT / 2 + 1)],
    ['invalid UTF-8', 'c328'],
    ['not JSON', Buffer.from('{nope', 'utf8').toString('hex')],
  ])('refuses %s', (_label, input) => {
    expect(() => decodeHexJson(input)).toThrow(HexJsonError);
  });
});
