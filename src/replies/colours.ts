/** Embed colours, defined once so every reply speaks the same colour language. */
export const Colour = {
  success: 0x2ecc71,
  danger: 0xe74c3c,
  warning: 0xf1c40f,
  orange: 0xe67e22,
  neutral: 0x95a5a6,
  info: 0x3498db,
} as const;
