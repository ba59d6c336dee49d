// What an operation's analysis records for the whole catalogue to learn from (src/docs/analysis.ts).
import { describe, expect, it } from 'vitest';
import { analyseOperation, W } from '../../src/docs/analysis.ts';
import { rankedOperation } from '../fixtures/ranked-operation.ts';

const op = rankedOperation;

describe('analyseOperation', () => {
  it('pairs a short form with the longer word it begins or ends, for the catalogue to read as one (hook and webhook)', () => {
    expect(analyseOperation(op('x.create-hook', 'POST', '/repos/{o}/{r}/hooks', 'Create a repository webhook')).prefixPairs).toContain('hook webhook');
  });

  it('does not pair a word with its opposite ("star" and "unstar")', () => {
    const pairs = analyseOperation(op('x.unstar', 'DELETE', '/user/starred/{owner}/{repo}', 'Unstar a repository for the authenticated user')).prefixPairs;
    expect(pairs).not.toContain('star unstar');
    expect(analyseOperation(op('x.disable', 'PUT', '/repos/{o}/{r}/able', 'Disable able')).prefixPairs).not.toContain('abl disabl');
  });

  it("reads its parameters' descriptions, lightly: a word found only there counts least of all", () => {
    const dispatch = analyseOperation(op('gh.actions/create-workflow-dispatch', 'POST', '/repos/{o}/{r}/actions/workflows/{workflow_id}/dispatches', 'Create a workflow dispatch event', { fieldTexts: ['The ID of the workflow. You can also pass the workflow file name as a string.'] }));
    expect(dispatch.fields.get('file')).toBe(W.fieldTexts);
    expect(dispatch.fields.get('workflow')).toBeGreaterThan(W.fieldTexts);
  });

  it("reads an operation without a summary by its description's first clause, not what qualifies it", () => {
    const balance = analyseOperation(op('s.GetBalance', 'GET', '/v1/balance', '', { description: '<p>Retrieves the current account balance, based on the authentication that was used to make the request. See more.</p>' }));
    expect(balance.summaryStems).toEqual(['retriev', 'current', 'account', 'balanc']);
    expect(balance.about).not.toContain('authent');
  });

  it("keeps the words its description's first sentence tells beyond its summary, for its meaning; none without a summary, whose words that sentence already gives", () => {
    const limit = analyseOperation(op('gh.interactions/set-restrictions-for-repo', 'PUT', '/repos/{o}/{r}/interaction-limits', 'Set interaction restrictions for a repository', { description: 'Temporarily restricts interactions to a certain type of GitHub user within the given repository. More text.' }));
    expect(limit.told).toEqual(expect.arrayContaining(['temporarily', 'restricts', 'interactions']));
    expect(limit.told).not.toContain('text');
    expect(analyseOperation(op('s.GetBalance', 'GET', '/v1/balance', '', { description: 'Retrieves the current account balance.' })).told).toEqual([]);
  });
});
