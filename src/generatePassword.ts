import { randomInt } from 'node:crypto';

// Letters and digits only: the API's password rules are not shown, and these survive every encoding.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 24 characters from a 57-symbol alphabet: about 140 bits, from the OS CSPRNG. */
export function generatePassword(length = 24): string {
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i++) password += ALPHABET[randomInt(ALPHABET.length)];
    // Some panels insist on each class; redraw rather than patch, to keep the distribution uniform.
    if (/[a-z]/.test(password) && /[A-Z]/.test(password) && /\d/.test(password)) return password;
  }
}
