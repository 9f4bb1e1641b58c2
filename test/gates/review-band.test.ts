import { describe, expect, it } from 'vitest';
import { scanText } from '../../src/gates/input/index.js';
import { REVIEW_BAND_REQUEST } from '../support/review-band.js';

describe('the review-band request the door tests use', () => {
  it.each([REVIEW_BAND_REQUEST, `${REVIEW_BAND_REQUEST} for this week`])(
    '%j goes to review, neither passing nor blocked',
    (text) => {
      expect(scanText(text, { channel: 'user_input' }).verdict).toBe('review');
    },
  );
});
