import type Picocolors from 'picocolors';

/** Colour functions (bold, dim, red…), on or off per stream: the type picocolors' public entry gives createColors. */
export type Colors = ReturnType<typeof Picocolors.createColors>;
