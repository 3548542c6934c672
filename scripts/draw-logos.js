// Draws the brand artwork in client/public/brand/: the wordmarks of PSA, PSA Vault, PCGS, WATA and
// Collectors (logo-<brand>-color.svg, -black.svg and -white.svg, the white one for the dark theme) and
// the favicons of collectors, psa, pcgs and the default one (favicon-<name>.svg).
//
// The marks are original geometric letters made here from rectangles, slanted strokes and elliptical
// arcs (the letter set below), not any company's logo, typeface or font file: each SVG holds filled
// outline paths only (no <text>, no fonts), so it looks the same in every browser. Every contour is
// drawn clockwise on screen, so a path with the default nonzero fill paints the union of its shapes.
// A wordmark's box is 48 high and starts where its ink does (1 unit either side), so the footer logo
// lines up with the text beside it.
//
// Run it after changing a letter or a mark, and commit the SVGs it writes (it finds the folder from
// its own place, so any working directory does):
//
//   node scripts/draw-logos.js            writes client/public/brand/*.svg
//   node scripts/draw-logos.js --check    exits 1 if a committed SVG differs from what it draws
//
// Plain Node, no dependencies.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const OUT = path.resolve(__dirname, '../client/public/brand');

// ---------------------------------------------------------------------------------------------
// Geometry: outlines as absolute M/L/A/Z path data, coordinates rounded to 0.01.
// ---------------------------------------------------------------------------------------------

const round = (n) => Math.round(n * 100) / 100;
const num = (n) => String(round(n));

/** Twice the signed area of a polygon (positive when clockwise on screen, y pointing down). */
function area(pts) {
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x1, y1] = pts[i];
    const [x2, y2] = pts[(i + 1) % pts.length];
    s += x1 * y2 - x2 * y1;
  }
  return s;
}

/** A closed polygon, turned clockwise if it was given the other way round. */
function poly(pts) {
  const p = area(pts) < 0 ? [...pts].reverse() : pts;
  return 'M' + p.map(([x, y]) => `${num(x)} ${num(y)}`).join('L') + 'Z';
}

const rect = (x, y, w, h) =>
  poly([
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ]);

/** A straight stroke of width w whose ends are cut horizontally (legs of A, V, W, R). */
function slant(xb, yb, xt, yt, w) {
  const length = Math.hypot(xt - xb, yt - yb);
  const hw = (w * length) / Math.abs(yt - yb);
  return poly([
    [xb - hw / 2, yb],
    [xb + hw / 2, yb],
    [xt + hw / 2, yt],
    [xt - hw / 2, yt],
  ]);
}

/** An elliptical stroke of width w from angle a0 to a1 (degrees, clockwise on screen, 0 = right). */
function arc(cx, cy, rx, ry, w, a0, a1) {
  const pt = (rx2, ry2, a) => {
    const t = (a * Math.PI) / 180;
    return `${num(cx + rx2 * Math.cos(t))} ${num(cy + ry2 * Math.sin(t))}`;
  };
  const big = a1 - a0 > 180 ? 1 : 0;
  const ro = [rx + w / 2, ry + w / 2];
  const ri = [rx - w / 2, ry - w / 2];
  return (
    `M${pt(...ro, a0)}A${num(ro[0])} ${num(ro[1])} 0 ${big} 1 ${pt(...ro, a1)}` +
    `L${pt(...ri, a1)}A${num(ri[0])} ${num(ri[1])} 0 ${big} 0 ${pt(...ri, a0)}Z`
  );
}

/** A full ring (a dot, a coin) as two half arcs. */
const ring = (cx, cy, r, w) => arc(cx, cy, r, r, w, 0, 180) + arc(cx, cy, r, r, w, 180, 360);

/** Moves a path's absolute coordinates right by dx (the paths here use M, L, A and Z only). */
function shift(d, dx) {
  if (dx === 0) return d;
  return d.replace(/([MLA])([^MLAZ]+)/g, (_, cmd, args) => {
    const n = args.trim().split(/[ ,]+/).map(Number);
    if (cmd === 'A') {
      // rx ry rotation large-arc sweep x y: only x moves.
      for (let i = 0; i < n.length; i += 7) n[i + 5] = round(n[i + 5] + dx);
    } else for (let i = 0; i < n.length; i += 2) n[i] = round(n[i] + dx);
    return cmd + n.map(num).join(' ');
  });
}

// ---------------------------------------------------------------------------------------------
// The letter set
// ---------------------------------------------------------------------------------------------

/**
 * The letters the marks use, for cap height H, stroke w and top y T. Each returns its advance width W
 * and its contours at x = 0; round letters overshoot the cap height and baseline by o.
 */
function letters(H, w, T) {
  const B = T + H;
  const o = H * 0.025;
  // The bowl of P and R: bars from the stem to a half ellipse of height hb.
  const bowl = (x0, hb, wid) => {
    const ry = (hb - w) / 2;
    const rx = Math.min(ry * 1.05, wid - x0 - w / 2 - ry);
    const cx = wid - w / 2 - rx;
    const cy = T + w / 2 + ry;
    return {
      cx,
      shapes: [
        rect(x0, T, cx - x0, w),
        rect(x0, T + hb - w, cx - x0, w),
        arc(cx, cy, rx, ry, w, -90, 90),
      ],
    };
  };
  const roundLetter = () => {
    const ry = H / 2 + o - w / 2;
    return { ry, cy: T + H / 2 };
  };
  return {
    P: () => {
      const W = H * 0.7;
      return { W, s: [rect(0, T, w, H), ...bowl(0, H * 0.58, W).shapes] };
    },
    R: () => {
      const W = H * 0.74;
      const hb = H * 0.56;
      const b = bowl(0, hb, W - H * 0.02);
      const leg = slant(W - w * 0.62, B, b.cx - w * 0.3, T + hb - w / 2, w * 1.02);
      return { W, s: [rect(0, T, w, H), ...b.shapes, leg] };
    },
    C: () => {
      const { ry, cy } = roundLetter();
      const rx = ry * 0.95;
      const cx = rx + w / 2;
      return { W: cx + (rx + w / 2) * 0.78, s: [arc(cx, cy, rx, ry, w, 42, 318)] };
    },
    O: () => {
      const { ry, cy } = roundLetter();
      const rx = ry * 0.97;
      const cx = rx + w / 2;
      return {
        W: 2 * rx + w,
        s: [arc(cx, cy, rx, ry, w, 0, 180), arc(cx, cy, rx, ry, w, 180, 360)],
      };
    },
    G: () => {
      const { ry, cy } = roundLetter();
      const rx = ry * 0.97;
      const cx = rx + w / 2;
      const right = cx + rx + w / 2;
      const bar = rect(cx + rx * 0.12, cy - w * 0.35, right - cx - rx * 0.12, w);
      const spur = rect(right - w, cy - w * 0.35, w, ry * 0.55 + w * 0.35);
      return { W: right, s: [arc(cx, cy, rx, ry, w, 0, 322), bar, spur] };
    },
    S: () => {
      const W = H * 0.66;
      const m = T + H * 0.49;
      const ryU = (m - (T - o + w / 2)) / 2;
      const ryL = (B + o - w / 2 - m) / 2;
      const rx = W / 2 - w / 2;
      const cx = W / 2;
      return {
        W,
        s: [arc(cx, m - ryU, rx, ryU, w, 90, 335), arc(cx, m + ryL, rx, ryL, w, -90, 155)],
      };
    },
    A: () => {
      const W = H * 0.86;
      const ap = w * 0.55; // the flat apex's width
      return {
        W,
        s: [
          slant(w * 0.55, B, W / 2 - ap / 2 + 0.01, T, w * 1.05),
          slant(W - w * 0.55, B, W / 2 + ap / 2 - 0.01, T, w * 1.05),
          rect(W * 0.24, T + H * 0.64, W * 0.52, w * 0.9),
        ],
      };
    },
    V: () => {
      const W = H * 0.84;
      const ap = w * 0.55;
      return {
        W,
        s: [
          slant(W / 2 - ap / 2, B, w * 0.55, T, w * 1.05),
          slant(W / 2 + ap / 2, B, W - w * 0.55, T, w * 1.05),
        ],
      };
    },
    W: () => {
      const W = H * 1.24;
      const q = W / 4;
      const ap = w * 0.4;
      const hw = w * 0.98;
      return {
        W,
        s: [
          slant(q * 1 - ap / 2 + w * 0.05, B, w * 0.5, T, hw),
          slant(q * 1 + ap / 2 - w * 0.05, B, 2 * q - ap / 2, T, hw),
          slant(q * 3 - ap / 2 + w * 0.05, B, 2 * q + ap / 2, T, hw),
          slant(q * 3 + ap / 2 - w * 0.05, B, W - w * 0.5, T, hw),
        ],
      };
    },
    T: () => {
      const W = H * 0.72;
      return { W, s: [rect(0, T, W, w), rect(W / 2 - w / 2, T, w, H)] };
    },
    L: () => {
      const W = H * 0.56;
      return { W, s: [rect(0, T, w, H), rect(0, B - w, W, w)] };
    },
    E: () => {
      const W = H * 0.6;
      return {
        W,
        s: [
          rect(0, T, w, H),
          rect(0, T, W, w),
          rect(0, T + H / 2 - w / 2, W * 0.9, w),
          rect(0, B - w, W, w),
        ],
      };
    },
    U: () => {
      const W = H * 0.76;
      const rx = W / 2 - w / 2;
      const ry = rx;
      const cy = B + o - w / 2 - ry;
      return {
        W,
        s: [
          rect(0, T, w, cy - T + 0.05),
          rect(W - w, T, w, cy - T + 0.05),
          arc(W / 2, cy, rx, ry, w, 0, 180),
        ],
      };
    },
  };
}

/** A word laid out from x0 with tracking (plus per-pair kerning): its contours and its width. */
function word(text, { H, w, T, x0 = 0, track, kern = {} }) {
  const g = letters(H, w, T);
  let x = x0;
  const out = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ' ') {
      x += H * 0.3;
      continue;
    }
    const { W, s } = g[ch]();
    out.push(...s.map((p) => shift(p, x)));
    x += W + track + (kern[text.slice(i, i + 2)] ?? 0);
  }
  return { d: out.join(''), width: x - track - x0 };
}

// ---------------------------------------------------------------------------------------------
// The wordmarks
// ---------------------------------------------------------------------------------------------

const BOX_H = 48;
/** Room left and right of the letters: the artwork's box starts where its ink does. */
const PAD = 1;

/** A word centred in a box as wide as its ink plus PAD either side, and where it starts. */
function fitted(text, options) {
  const probe = word(text, options);
  const width = Math.ceil(probe.width + 2 * PAD);
  const x0 = (width - probe.width) / 2;
  return { width, x0, inkWidth: probe.width, d: word(text, { ...options, x0 }).d };
}

/** Each mark: its accessible name, box width and coloured layers (the colour variant's colours). */
function wordmarks() {
  const marks = {};
  {
    // PSA: bold red letters over a rule of the same width.
    const H = 28;
    const T = 7;
    const t = fitted('PSA', { H, w: 6.2, T, track: 2.4 });
    marks.psa = {
      name: 'PSA',
      width: t.width,
      layers: [
        { fill: '#c8102e', d: t.d },
        { fill: '#c8102e', d: rect(t.x0, T + H + 3.4, t.inkWidth, 2.8) },
      ],
    };
  }
  {
    // PSA Vault: the PSA letters, a divider, VAULT lighter and tracked out.
    const H = 25;
    const T = 9;
    const psaStyle = { H, w: 5.6, T, track: 2.4 };
    const Hv = 19;
    const vaultStyle = { H: Hv, w: 4.2, T: T + H - Hv, track: 3.2, kern: { VA: -2.2, LT: -1.4 } };
    const psaWidth = word('PSA', psaStyle).width;
    const gap = 9;
    const div = 2;
    const total = psaWidth + gap + div + gap + word('VAULT', vaultStyle).width;
    const width = Math.ceil(total + 2 * PAD);
    const x0 = (width - total) / 2;
    const xd = x0 + psaWidth + gap;
    marks.psavault = {
      name: 'PSA Vault',
      width,
      layers: [
        {
          fill: '#c8102e',
          d: word('PSA', { ...psaStyle, x0 }).d + rect(x0, T + H + 3.2, psaWidth, 2.6),
        },
        {
          fill: '#1d2129',
          d: rect(xd, T - 1, div, H + 6.8) + word('VAULT', { ...vaultStyle, x0: xd + div + gap }).d,
        },
      ],
    };
  }
  {
    // PCGS: blue letters over a gold rule.
    const H = 25;
    const T = 9;
    const t = fitted('PCGS', { H, w: 5.4, T, track: 2 });
    marks.pcgs = {
      name: 'PCGS',
      width: t.width,
      layers: [
        { fill: '#00447c', d: t.d },
        { fill: '#9a6b00', d: rect(t.x0, T + H + 3.2, t.inkWidth, 2.6) },
      ],
    };
  }
  {
    // WATA: green letters over a dark rule.
    const H = 25;
    const T = 9;
    const t = fitted('WATA', { H, w: 5.4, T, track: 2, kern: { WA: -2.4, AT: -2.6, TA: -2.6 } });
    marks.wata = {
      name: 'WATA',
      width: t.width,
      layers: [
        { fill: '#1b6b3f', d: t.d },
        { fill: '#1d2129', d: rect(t.x0, T + H + 3.2, t.inkWidth, 2.6) },
      ],
    };
  }
  {
    // Collectors: navy letters; the first O holds a gold dot (a coin, a seal).
    const H = 26;
    const w = 5.5;
    const T = 11;
    const track = 2.8;
    const t = fitted('COLLECTORS', { H, w, T, track, kern: { LL: 0, CT: -0.6, TO: -0.6 } });
    // The first O's centre: after the C and its tracking.
    const g = letters(H, w, T);
    const ocx = t.x0 + g.C().W + track + g.O().W / 2;
    marks.collectors = {
      name: 'Collectors',
      width: t.width,
      layers: [
        { fill: '#0b2a4a', d: t.d },
        { fill: '#b07a00', d: ring(ocx, T + H / 2, 1.6, 3.2) },
      ],
    };
  }
  return marks;
}

/** The colour artwork, and the one-colour ones: black for light pages, white for the dark theme. */
const VARIANTS = { color: null, black: '#000000', white: '#ffffff' };

function logoSvg({ name, width, layers }, variant) {
  const mono = VARIANTS[variant];
  const merged = [];
  // Layers of one colour become one path.
  for (const { fill, d } of layers) {
    const colour = mono ?? fill;
    const same = merged.find((m) => m.fill === colour);
    if (same) same.d += d;
    else merged.push({ fill: colour, d });
  }
  const paths = merged.map(({ fill, d }) => `<path fill="${fill}" d="${d}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${BOX_H}" width="${width}" height="${BOX_H}" role="img" aria-label="${name}"><title>${name}</title>${paths}</svg>\n`;
}

// ---------------------------------------------------------------------------------------------
// The favicons: the brand's colour as a rounded tile, its initial(s) in white, the same letters.
// ---------------------------------------------------------------------------------------------

function faviconSvg(background, layers) {
  const paths = layers.map(({ fill, d }) => `<path fill="${fill}" d="${d}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="12" fill="${background}"/>${paths}</svg>\n`;
}

/** Letters centred on the 64 × 64 tile. */
function initials(text, H, w, track = 3) {
  const T = (64 - H) / 2;
  const probe = word(text, { H, w, T, track });
  return word(text, { H, w, T, x0: (64 - probe.width) / 2, track }).d;
}

function favicons() {
  const white = (d) => [{ fill: '#ffffff', d }];
  return {
    // The Collectors C holds the logo's gold dot.
    collectors: faviconSvg('#0b2a4a', [
      { fill: '#ffffff', d: initials('C', 40, 9) },
      { fill: '#e0a526', d: ring(34.2, 32, 2.6, 5.2) },
    ]),
    psa: faviconSvg('#c8102e', white(initials('P', 40, 9))),
    pcgs: faviconSvg('#00447c', white(initials('PC', 30, 7, 3))),
    // The brands whose table row names no favicon of their own (brand-definitions.ts): a ring on slate.
    default: faviconSvg('#4a5568', white(ring(32, 32, 11, 8))),
  };
}

// ---------------------------------------------------------------------------------------------

/** Every file this script draws, by name. */
function drawAll() {
  const files = {};
  for (const [key, mark] of Object.entries(wordmarks()))
    for (const variant of Object.keys(VARIANTS))
      files[`logo-${key}-${variant}.svg`] = logoSvg(mark, variant);
  for (const [key, svg] of Object.entries(favicons())) files[`favicon-${key}.svg`] = svg;
  return files;
}

function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [name, svg] of Object.entries(drawAll())) {
    const file = path.join(OUT, name);
    if (!check) fs.writeFileSync(file, svg);
    else if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== svg) stale.push(name);
  }
  if (stale.length > 0) {
    console.error(`not what scripts/draw-logos.js draws: ${stale.join(', ')}`);
    process.exitCode = 1;
  } else console.log(check ? 'the brand SVGs are as drawn' : `drew the brand SVGs in ${OUT}`);
}

main();
