// Retrieval quality of search_docs over the real GitHub catalogue: natural-language intents with
// the operation a person would expect. Reports recall@3 (goal ≥ 0.9) and fails below 0.8.
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.ts';
import { Catalog } from '../../src/catalog/index.ts';
import { buildDocsIndex } from '../../src/docs/index.ts';

const INTENTS: [string, string][] = [
  ['create an issue', 'issues/create'],
  ['list repositories of an organization', 'repos/list-for-org'],
  ['get the contents of a file in a repository', 'repos/get-content'],
  ['open a pull request', 'pulls/create'],
  ['merge a pull request', 'pulls/merge'],
  ['add a comment to an issue', 'issues/create-comment'],
  ['list issues in a repository', 'issues/list-for-repo'],
  ['publish a new release', 'repos/create-release'],
  ['star a repository', 'activity/star-repo-for-authenticated-user'],
  ['who am I: get the authenticated user', 'users/get-authenticated'],
  ['list branches of a repository', 'repos/list-branches'],
  ['create a gist', 'gists/create'],
  ['add labels to an issue', 'issues/add-labels'],
  ['list workflow runs for a repository', 'actions/list-workflow-runs-for-repo'],
  ['create a new repository for the authenticated user', 'repos/create-for-authenticated-user'],
  ['fork a repository', 'repos/create-fork'],
  ['list commits', 'repos/list-commits'],
  ['get a single commit', 'repos/get-commit'],
  ['request reviewers for a pull request', 'pulls/request-reviewers'],
  ['create a repository webhook', 'repos/create-webhook'],
  ['list repository collaborators', 'repos/list-collaborators'],
  ['search code', 'search/code'],
  ['search issues and pull requests', 'search/issues-and-pull-requests'],
  ['list members of an organization', 'orgs/list-members'],
  ['create or update file contents', 'repos/create-or-update-file-contents'],
  ['delete a file from a repository', 'repos/delete-file'],
  ['list repository tags', 'repos/list-tags'],
  ['get a repository', 'repos/get'],
  ['create a git reference for a new branch', 'git/create-ref'],
  ['list teams in an organization', 'teams/list'],
  ['create or update a repository secret for GitHub Actions', 'actions/create-or-update-repo-secret'],
  ['trigger a workflow dispatch event', 'actions/create-workflow-dispatch'],
  ['list notifications for the authenticated user', 'activity/list-notifications-for-authenticated-user'],
  ['list pull requests', 'pulls/list'],
  ['lock an issue conversation', 'issues/lock'],
];

describe('search_docs retrieval quality', () => {
  it(`finds the expected GitHub operation in the top 3 for at least 80% of ${INTENTS.length} intents`, async () => {
    const store = new SqliteStore(':memory:');
    const catalog = await Catalog.load(store);
    const github = catalog.get('github', 'v1')!;
    const docs = buildDocsIndex(catalog, new Map([['github', 'v1']]), github.operations.map((o) => o.id));
    const misses: string[] = [];
    for (const [query, expected] of INTENTS) {
      const answer = docs.run({ query }, () => true) as { results: { operationId: string }[] };
      const ids = answer.results.map((r) => r.operationId);
      if (!ids.includes(`github.${expected}`)) misses.push(`${query} → ${ids.join(', ')} (wanted ${expected})`);
    }
    const recall = (INTENTS.length - misses.length) / INTENTS.length;
    console.log(`search_docs recall@3 on ${INTENTS.length} GitHub intents: ${recall.toFixed(3)}${misses.length ? `\nmisses:\n  ${misses.join('\n  ')}` : ''}`);
    expect(INTENTS.length).toBeGreaterThanOrEqual(30);
    expect(recall).toBeGreaterThanOrEqual(0.8);
    await store.close();
  });
});
