import { describe, expect, it } from 'vitest';
import { SlowedRefusals } from '../../src/http/slowed-refusals.ts';

const O = 'http://127.0.0.1:1';

/** 60 paced answers each of createPet and listPets, every `createEvery`th and `listEvery`th refused (0: none). */
function paced(createEvery: number, listEvery: number): SlowedRefusals {
  const slowed = new SlowedRefusals();
  for (let i = 1; i <= 60; i++) {
    slowed.answered(O, 'listPets', listEvery > 0 && i % listEvery === 0);
    slowed.answered(O, 'createPet', createEvery > 0 && i % createEvery === 0);
  }
  return slowed;
}

describe('SlowedRefusals', () => {
  it('an operation refused every 5th answer while paced, beside others never refused, fails when slowed', () => {
    expect(paced(5, 0).failsWhenSlowed(O, 'createPet')).toBe(true);
    expect(paced(5, 0).failsWhenSlowed(O, 'listPets')).toBe(false);
  });

  it('refusals of every operation alike are a limit, not a failure: one shared with another host, or a rate climbing past its limit', () => {
    expect(paced(5, 5).failsWhenSlowed(O, 'createPet')).toBe(false);
    expect(paced(4, 30).failsWhenSlowed(O, 'createPet')).toBe(false);
    expect(paced(20, 0).failsWhenSlowed(O, 'createPet')).toBe(false);
  });

  it('reads nothing from a few answers', () => {
    const slowed = new SlowedRefusals();
    for (let i = 0; i < 10; i++) slowed.answered(O, 'createPet', true);
    for (let i = 0; i < 60; i++) slowed.answered(O, 'listPets', false);
    expect(slowed.failsWhenSlowed(O, 'createPet')).toBe(false);
  });
});
