/**
 * One string per class of character that a queue refuses, or that a careless writer would mangle: each must come
 * back from a queue exactly as it went in.
 */
export const CHARACTER_CLASSES = {
  /** Surrogate pairs: U+1F436, U+20000, U+1D400 (the local queue refuses them raw). */
  astral: 'p-abc123-🐶 𠀀 𝐀',
  /** A high and a low surrogate, each alone. */
  'lone surrogates': 'x\ud83dy\udc36z',
  /** The two non-characters SQS refuses raw. */
  'U+FFFE/U+FFFF': 'a\ufffeb\uffffc',
  /** NUL and the other C0 controls, tab and line ends included, and DEL. */
  'C0 controls': `${Array.from({ length: 32 }, (_, n) => String.fromCharCode(n)).join('')}\u007f`,
  /** The line and paragraph separators, which SQS carries but some JSON readers do not expect. */
  'U+2028': 'a\u2028b\u2029c',
} as const;
