// How an asked action agrees with an operation's action (src/docs/agreement.ts), without a catalogue.
import { describe, expect, it } from 'vitest';
import { actionAgreement, ownVerbAgreement, questionAgreement } from '../../src/docs/agreement.ts';

describe('actionAgreement', () => {
  it('agrees fully with the same action and not at all when nothing is asked', () => {
    expect(actionAgreement('delete', 'delete')).toBe(1);
    expect(actionAgreement(undefined, 'delete')).toBe(0);
  });

  it('never lets a read answer a write, nor a write a read', () => {
    expect(actionAgreement('delete', 'get')).toBe(-1);
    expect(actionAgreement('list', 'create')).toBe(-1);
    expect(actionAgreement('read', 'update')).toBe(-1);
  });

  it('counts one read for another a little, and an unsaid read against any read the same', () => {
    expect(actionAgreement('list', 'get')).toBe(0.4);
    expect(actionAgreement('read', 'list')).toBe(0.4);
  });

  it('keeps create and update close, cancel and delete near, and other writes apart', () => {
    expect(actionAgreement('create', 'update')).toBe(0);
    expect(actionAgreement('cancel', 'delete')).toBe(0.3);
    expect(actionAgreement('delete', 'create')).toBe(-0.6);
  });

  it('is neutral between a write and an operation\'s own verb ("merg"), and between a read and one', () => {
    expect(actionAgreement('update', 'merg')).toBe(0);
    expect(actionAgreement('read', 'merg')).toBe(0);
  });
});

describe('questionAgreement', () => {
  it('makes a write that disagrees with a question cost more, and leaves reads, own verbs and commands alone', () => {
    expect(questionAgreement(-1, true, 'create', 5)).toBe(-5);
    expect(questionAgreement(0.4, true, 'list', 5)).toBe(0.4);
    expect(questionAgreement(-1, false, 'create', 5)).toBe(-1);
    expect(questionAgreement(0, true, 'merg', 5)).toBe(0);
  });
});

describe('ownVerbAgreement', () => {
  it('answers a read with an own-verb GET ("Compare two commits") and a write with it not at all', () => {
    expect(ownVerbAgreement('get', 'get')).toBeCloseTo(0.6);
    expect(ownVerbAgreement('read', 'get')).toBeCloseTo(0.24);
    expect(ownVerbAgreement('create', 'get')).toBeCloseTo(-0.6);
  });

  it('answers a write of its method\'s kind at a share, one of another kind as neither, and a read never', () => {
    expect(ownVerbAgreement('create', 'create')).toBeCloseTo(0.6);
    expect(ownVerbAgreement('delete', 'create')).toBe(0);
    expect(ownVerbAgreement('list', 'update')).toBe(-1);
    expect(ownVerbAgreement(undefined, 'update')).toBe(0);
  });
});
