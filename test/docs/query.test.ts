// A search query read into action, self cue and terms (src/docs/query.ts).
import { describe, expect, it } from 'vitest';
import { beforeMessage, parseQuery, type QueryTerm } from '../../src/docs/query.ts';

/** A term's word and the other words it stands for (the words for people are one term). */
const wordsOf = (t: QueryTerm): string[] => [t.word, ...(t.alternatives ?? [])];
const terms = (q: string) => parseQuery(q).terms.flatMap(wordsOf);

/** Requests and the words catalogues write that each implies (true) or must not (false), by what it says (src/docs/query.ts). */
const IMPLIED_BY_WHAT_IS_SAID: [string, string[], boolean][] = [
  // Implies a payout where money lands in, hits or is paid out to one's bank, not where a bank account is added.
  ['When is money hitting my bank?', ['payout'], true],
  ['What has Stripe paid out to our bank account?', ['payout'], true],
  ["Show me the transfers Stripe sent to the club's bank account", ['payout'], true],
  ['add a bank account to customer cus_1', ['payout'], false],
  // Implies a template for a thing made to be used again, and a metric for a measure reached.
  ['turn the Onboarding project into a reusable blueprint', ['template'], true],
  ['make it something we can reuse for every new hire', ['template'], true],
  ['reuse the old invoice number', ['template'], false],
  ["we're at 62% on the enrollment goal now, update the number", ['metric'], true],
  ["update the goal's progress number", ['metric'], true],
  ['update the goal title', ['metric'], false],
  // Implies a search where things are found by what was said in them, and an event where one asks what is on at a time.
  ["where's the message where the lender talked about the rate lock?", ['search'], true],
  // What was said is in messages: things found by what someone talked about or mentioned.
  ['Find where someone talked about the Tempranillo allocation', ['message'], true],
  ['Pull up anything mentioning order 88213.', ['message'], true],
  ['repos about rust web frameworks', ['message'], false],
  ["look through messages for 'Q3 grant'", ['search'], true],
  ['talk to the lender', ['search'], false],
  ['what have I got on Thursday?', ['event'], true],
  ['what do I have tomorrow', ['event'], true],
  ['what do I have access to?', ['event'], false],
  // Implies metadata where it asks which fields a thing needs.
  ['what fields are required when I create a bug in project BE', ['metadata'], true],
  ['which fields do I have to fill in to file a Story?', ['metadata'], true],
  ['add a required field to the form', ['metadata'], false],
  // Implies a secret where a value is kept from view.
  ['store SENTRY_DSN as an encrypted value', ['secret'], true],
  ['save the key so the deploy job can read it without it being in the code', ['secret'], true],
  ['store the deploy key on the repo', ['secret'], false],
  // Implies a check of authentication where a credential is asked whether it works.
  ['is my bot token still good?', ['authentication', 'check'], true],
  ['confirm the token still works and tell me which workspace it maps to', ['authentication'], true],
  ['Sanity-check the token we just rotated: is it valid', ['authentication'], true],
  ['rotate the deploy key, the old one leaked', ['authentication'], false],
  ['is the nightly job still working?', ['authentication'], false],
  // Implies the audit records for what admins did, the access logs for who signed in from where, and archiving for a place shut with its history kept.
  ['Pull the admin activity log for the last 30 days', ['audit'], true],
  ['show me what admins changed in the config last weekend', ['audit'], true],
  ['make dana an admin of the project', ['audit'], false],
  ['Pull the login history for the workspace', ['access', 'log'], true],
  ['who signed in from which IP addresses this week?', ['access'], true],
  ['log user U123 out of every device', ['access'], false],
  ['shut down #summer-retreat but keep its history', ['archive'], true],
  ['delete #summer-retreat and everything in it', ['archive'], false],
  // Implies an amount reduced where it is knocked or taken off a thing.
  ['Knock $30 off finalized invoice in_555', ['reduce', 'adjust', 'amount'], true],
  ['take 10% off their next bill', ['reduce'], true],
  ['take it off my list altogether', ['reduce'], false],
  // Implies a dashboard for a page of charts, subtasks for a task broken into pieces or a step under one, and a subscription for someone put on a price that recurs.
  ['Set up a fresh overview page with charts for the committee', ['dashboard'], true],
  ['make a board of gadgets for the leadership team', ['dashboard'], true],
  ['move the card to the board', ['dashboard'], false],
  ["Break 'Prep CSA boxes' into smaller pieces: sort greens, pack roots", ['subtask'], true],
  ["Under the 'Spring pledge drive' task, add a checklist item", ['subtask'], true],
  ['add a task to the Spring project', ['subtask'], false],
  // Implies the billable ones where people are paid for, free and busy times where several are asked whether they are open at a time, and a dispatch where a workflow is started by hand or on a branch.
  ['How many people are we actually paying for on Slack?', ['billable'], true],
  ['pay for the order with the card on file', ['billable'], false],
  ['When are Sam and Priya both free Thursday afternoon?', ['free', 'busy'], true],
  ['Is anyone booked between 2 and 4pm tomorrow?', ['free', 'busy'], true],
  // Whether someone is online or away now: their presence.
  ['Is Tom online right now?', ['presence'], true],
  ['Is Marco on right now or is he out on a mow?', ['presence'], true],
  ["check whether she's showing as active right now", ['presence'], true],
  ['list the active users in the workspace', ['presence'], false],
  ['the Jenkins URL is going away', ['presence'], false],
  ['What workflow moves are available on PROJ-101 right now?', ['presence'], false],
  ['list all open issues from this week', ['free', 'busy'], false],
  // One person or place asked after, or the openings someone has at a time.
  ['is courtroom 4B open Thursday between 1 and 5?', ['free', 'busy'], true],
  ['Is Ms. Patel free next Tuesday between 1 and 3?', ['free', 'busy'], true],
  ['Can you check if Park Ji-yeon and Choi Dong-hyun are free Thursday 2pm to 4pm?', ['free', 'busy'], true],
  ['Do I have any openings Friday between 1 and 4?', ['free', 'busy'], true],
  ['is there an open PR from this week?', ['free', 'busy'], false],
  ['is issue 5 still open?', ['free', 'busy'], false],
  ['manually fire the deploy-site workflow on main', ['dispatch'], true],
  ['Kick off deploy.yml on the release-1.29 branch of platform/k8s-addons', ['dispatch'], true],
  ['re-run the failed jobs of run 42', ['dispatch'], false],
  // Implies the user blocked where an account is locked or kept from signing in.
  ["HR says Mike is on extended leave. Lock his GitLab account until he's back", ['block'], true],
  ['User 314 is compromised, stop them signing in immediately', ['block'], true],
  ['lock the conversation on issue 12', ['block'], false],
  // Implies bulk where many things are done in one request, and the upcoming invoice where what someone will be charged next is asked.
  ['Create all 50 DATA tickets in a single shot', ['bulk'], true],
  ['open them all as tickets at once', ['bulk'], true],
  ['merge it once CI passes', ['bulk'], false],
  ["What will cus_Q1 be charged on their next billing cycle?", ['upcoming', 'invoice'], true],
  ["Show me what cus_Lab7's next bill will look like", ['upcoming'], true],
  ['what was cus_Q1 charged last month?', ['upcoming'], false],
  // Implies a permalink where a lasting link to a message is asked for.
  ['I need a direct link to the message where Karen approved the March accruals', ['permalink'], true],
  ['I need a shareable URL for that message in #chargebacks', ['permalink'], true],
  ['post the link to the release in #general', ['permalink'], false],
  // Implies a watch where someone asks to be kept updated or posted.
  ['I want to be kept updated on ACT-52, the minibus booking', ['watch'], true],
  ['keep me posted on PROJ-9', ['watch'], true],
  ['keep me on the PROJ-9 ticket', ['watch'], false],
  // Implies a notification where the people on a ticket are told something.
  ['Email the assignee and watchers of LOC-310 to let them know the source strings changed', ['notification'], true],
  ['Let everyone watching RADIO-150 know by email that the show is cancelled', ['notification'], true],
  ['email the assignee of PROJ-9', ['notification'], false],
  // Implies a sync with the upstream where a copy is brought level with where it came from.
  ['My fork is 40 commits behind the original, bring its main branch up to date', ['upstream', 'sync'], true],
  ["catch my copy of acme/api up with the original repo's main", ['upstream'], true],
  ['bring the docs up to date with the new API', ['upstream'], false],
  // Implies an import where a thing is brought over from another system or keeps the ID it had there, and the exchange rate where one currency is valued in another.
  ['Bring the department seminar from the .ics file into our lab calendar', ['import'], true],
  ['Bring this booking over from our old system, keeping its original iCal UID', ['import'], true],
  ['bring the meeting forward an hour', ['import'], false],
  ['What conversion rate is Stripe using for CAD right now?', ['exchange', 'rate'], true],
  ['what is one euro worth in dollars today', ['exchange'], true],
  ['what tax rate applies in Ontario', ['exchange'], false],
  // Implies a check of authentication where a credential is asked whose it is, pending deployments where a run waits on an environment, and a trigger where a token is to start pipelines.
  ['which user and workspace does this token belong to?', ['authentication', 'check'], true],
  ['sanity check: is my bot token valid?', ['authentication'], true],
  ['which workspace does this channel belong to?', ['authentication'], false],
  ['run 7788 is sitting there waiting on the prod environment gate - approve it', ['pending', 'deployment'], true],
  ['Who signed off on the production environment gate for run 9120044?', ['pending'], false],
  ['I need a token our test harness can use to fire pipelines in project 88', ['trigger'], true],
  ['make a personal access token for the CI user', ['trigger'], false],
  // Implies collaborators where it asks who has been given access to a place, and labels where quoted names are stuck on an issue.
  ['Who currently has access to our case-tracker repository?', ['collaborator'], true],
  ["Who's got access to roxy-cinema/kiosk-firmware?", ['collaborator'], true],
  ['how do I get access to the billing API?', ['collaborator'], false],
  ["stick 'bug' and 'urgent' on issue 77", ['label'], true],
  ["tag issue 58 in devcircle/site with 'good first issue'", ['label'], true],
  ["Tag what's on main right now as 'season-2025-open'", ['label'], false],
  // Implies a checkout for a page someone else hosts, a topic for the line at the top of a channel, and the instance's information for the version a site runs.
  ['Set up a hosted payment page for 3 VIP tables at $1,200 each', ['checkout'], true],
  ["Change the line at the top of #oncall to 'Week 13 - Luis'", ['topic'], true],
  ['keep the tournament rules message at the top of #general', ['topic'], false],
  ['Which Jira version and build number is our site running?', ['instance', 'server'], true],
  ['which version is PROJ-5 fixed in?', ['instance'], false],
  // Implies clearing where a place is emptied of everything, keeping where a thing is kept from expiring, billing usage for what was spent, and a health check for a domain asked whether it is set up right.
  ["New school year: wipe every event off the main calendar but keep the calendar itself", ['clear'], true],
  ['Empty out my primary calendar completely', ['clear'], true],
  ['delete the standup event', ['clear'], false],
  ["Don't let build 88213's artifacts expire", ['keep'], true],
  ["build 4410's artifacts, they don't expire.", ['keep'], true],
  ['when do the artifacts of job 9 expire?', ['keep'], false],
  ['How much has the org spent on build minutes and storage this month?', ['billing', 'usage'], true],
  ['Decline the pending spend iauth_1PxY7 on our corporate card', ['billing'], false],
  ['GitHub Pages: is the DNS for our custom domain set up right?', ['health', 'check'], true],
  ['set up a custom domain for our Pages site', ['health'], false],
  // Implies validating where a config is checked for errors, a webhook where a system is to be called back, blocking where someone is kept out, and sharing where a group is given access to a project.
  ['Check this CI config for syntax errors before I push it', ['validate', 'lint'], true],
  ['check the PR for conflicts', ['lint'], false],
  ['Have our app get called back whenever an issue in project DATA is updated', ['webhook'], true],
  ["Add 'Call back Mrs. Patel' to our Major Gifts project", ['webhook'], false],
  ['Keep him out of the whole school organization', ['block'], true],
  ['Ban xXgrieferXx from our ModForge org', ['block'], true],
  ['Give the city-gis group developer access to the parks-web project', ['share'], true],
  ['give Sam developer access to the parks-web project', ['share'], false],
  // Implies resuming where a paused thing is started again, and a search where things are found by what a field of theirs holds.
  ["The paused plan sub_77 isn't billing anymore, get it running again", ['resume'], true],
  ['pause the plan sub_77 until March', ['resume'], false],
  ['list payments using a query like amount>50000', ['search'], true],
  ['add metadata to payment pi_1', ['search'], false],
  // Implies a promotion code where people type a code for a discount, and a terminal's reader for a card machine.
  ['I want guests to be able to type GALA20 at checkout and get 20% off', ['promotion', 'code'], true],
  ['check out the PR branch', ['promotion'], false],
  ['Pair the new card machine at the Shoreditch shop', ['terminal', 'reader'], true],
  ['charge the card on file', ['reader'], false],
  // Implies a credit note where money is credited against an invoice, and a component for a part of a project that work is sorted under.
  ['issue a partial credit against the camp fee invoice in_1CampFee', ['credit', 'note'], true],
  ['Give cus_Rt55 a $10 credit toward their next invoice', ['note'], false],
  ["Add a 'Netcode' area to the GAME project with ahmed as the lead", ['component'], true],
  ['create a project called GAME with ahmed as its lead', ['component'], false],
  ['Add a Marketing category for our projects', ['component'], false],
  // Implies a member where someone is taken out of a place, and a pages site where a repository is served as a website.
  ['take dr-kowalski-it out of the pawsome-vets organization', ['member'], true],
  ['offboard alex-temp from the acme org', ['member'], true],
  ['take the trash out of the office', ['member'], false],
  ['Can we make the classroom-news repo show up as a real website?', ['pages', 'site'], true],
  ['what is the website field of our org profile?', ['pages'], false],
  // Implies a custom field for a field of one's own kind or one used across a workspace.
  ["I'd like a Priority dropdown field with High, Medium and Low", ['custom'], true],
  ["I want a 'Client ID' field available for tasks across the whole workspace", ['custom'], true],
  ['set the due date field on task 12', ['custom'], false],
  // Implies a list of values for a block or allow list, an integration where a project is hooked up to a service, and a webhook where a program is told of every change.
  ['put that address on our blocked emails list', ['value', 'list'], true],
  ['I want fraud@example.net sitting on our Radar blocklist', ['value'], true],
  ['add Sam to the mailing list', ['value'], false],
  ['Hook project 42 up to our Slack so pushes get posted', ['service', 'integration'], true],
  ['look up project 42', ['integration'], false],
  ['our bot needs to hear about every change in project 4412', ['webhook'], true],
  ['I want to hear about the launch plans', ['webhook'], false],
  // Implies a comment where words are to be said on a ticket, and the locale where a language is named as the one to use.
  ['On TRUCK-9 write that the health inspector is coming Friday', ['comment'], true],
  ['write the release notes for v2', ['comment'], false],
  ['switch my Jira to French', ['locale', 'language'], true],
  ["Rename COMM-155 to 'Translate the guide to Portuguese'", ['locale'], false],
  // Implies credentials where tokens or keys are revoked.
  ['Invalidate these personal access tokens immediately: ghp_3fA9xK, ghp_Q81LmZ', ['credential'], true],
  ['create a token for the CI user', ['credential'], false],
  // Implies changes where the diff of a change request is asked, access control where someone's access is taken away, and the portal for a page where customers manage their own billing.
  ["what's the diff on MR 42", ['changes'], true],
  ['what files does merge request 17 touch?', ['changes'], true],
  ['show me the diff of commit a1b2c3', ['changes'], false],
  ['Tom moved to ER, take away his access to the 5 North calendar', ['access', 'control'], true],
  ['give Tom access to the 5 North calendar', ['control'], false],
  ['get me a self-service billing page link for cus_77QR', ['portal'], true],
  ['get me a payment link for the $20 T-shirt', ['portal'], false],
  ['Tag the storefront repository with homepage, checkout and seo so it is easier to find', ['topic'], true],
  ['set the discovery tags on acme/growth-toolkit to analytics and utm', ['topic'], true],
  ['Tag issue 18 in my shop-orders repo with urgent and wholesale', ['topic'], false],
  ['list the tags on our repo', ['topic'], false],
  ['tag the v1.8.0 release of the repo', ['topic'], false],
  ['Shut the conversation down so nobody else can reply.', ['lock'], true],
  ['the discussion on issue 231 should be closed to further comments', ['lock'], true],
  ['Someone keeps flaming in issue #88, shut down further comments on it', ['lock'], true],
  ['We retired the webhook. Shut off that notification channel', ['lock'], false],
  ['reply to the comment on issue 45', ['lock'], false],
  ['Tell Ana privately, inside #bookings, that Hall C is on hold', ['ephemeral'], true],
  ['Warn @jsmith in #deploys, only visible to him, that his PR has a key in it', ['ephemeral'], true],
  ['In #general, show only Marco a note; nobody else should see it', ['ephemeral'], true],
  ['post the release notes in #general for everyone', ['ephemeral'], false],
  ['knock $30 off invoice in_1Abc, the order came late', ['credit', 'note'], true],
  ['reduce what they owe on invoice in_9Xy by $12', ['credit', 'note'], true],
  ['Adjust the finalized invoice in_1Qq down by $40', ['credit', 'note'], true],
  ['take the draft invoice in_1Qq and send it', ['credit', 'note'], false],
  ['Send cus_9Rt a link where they can update their card themselves', ['portal'], true],
  ['generate a url so cus_A12 can change their plan on their own', ['portal'], true],
  ['update the card on file for cus_9Rt', ['portal'], false],
  ["put a party popper emoji on Ana's post about the launch", ['reaction'], true],
  ['react with tada emoji to that message', ['reaction'], true],
  ['upload our logo as a custom emoji', ['reaction'], false],
  ['Kindly retire the LEGACY project from active use without deleting it.', ['archive'], true],
  ['put the ACME project in cold storage', ['archive'], true],
  ['make the team-3 repo read-only', ['archive'], true],
  ['delete the ACME project', ['archive'], false],
  ["Show me everything in the OPS project that isn't finished yet", ['search'], true],
  ["what's still open and on my name?", ['search'], true],
  ['How many tasks are still open in Site Handover?', ['search'], false],
  ["set up a 'Stagehands' group in our GitHub org for the crew", ['team'], true],
  ['add dana to the jira-admins group', ['team'], false],
  ['Are there any open-source projects out there for choir seating charts?', ['repository', 'search'], true],
  ['look around GitHub for libraries about PDF parsing', ['repository', 'search'], true],
  ['list the projects in our org', ['repository'], false],
  ['are there any vulnerable packages flagged on the billing repo?', ['dependabot', 'alert'], true],
  ['list the packages in our org', ['dependabot'], false],
  ['for the next 24 hours only let existing contributors comment or open issues on acme/site', ['interaction'], true],
  ['list the people who have contributed to acme/site', ['interaction'], false],
  ['for the next 24 hours only let existing contributors comment on acme/site', ['lock'], false],
  ['who in our org has a Copilot license right now?', ['seat'], true],
  ['what license does the acme/api repo use?', ['seat'], false],
  ['get me a token to register a new runner on acme/infra', ['registration'], true],
  ['Find every file in the acme org that still imports moment', ['code', 'search'], true],
  ['list the files changed in PR 7', ['code'], false],
  ['Let my nephew (username tomb-dev) help out on the salon-booking repository', ['collaborator'], true],
  ['let the mobile team push to tutorly/mobile-app', ['collaborator'], false],
  ["can 'summer-camp-2023' just be called 'summer-camp' now?", ['rename'], true],
  ['change the name of the master branch to main on acme/app', ['rename'], true],
  ['Push the triage call to 4pm instead', ['rename'], false],
  ['find the donor whose email is ann.lee@example.org', ['customer'], true],
  ['email the report to ann.lee@example.org', ['customer'], false],
  ["show 'Tap to pay' on the card reader tmr_55Hq", ['display'], true],
  ['list the card readers at the Elm Street shop', ['display'], false],
  ['Give me every movement that hit our balance in Q1', ['balance', 'transaction'], true],
  ["what's our available balance right now?", ['transaction'], false],
  // Implies an event where a thing is moved in time, not where a date a thing has is moved.
  ['Push the client design review to Thursday at 3pm', ['event'], true],
  ['push the bootcamp session back an hour', ['event'], true],
  ["Rocky's dental cleaning should start at 11 instead of 9.", ['event'], true],
  ["push the due date on 'App Store screenshots' to June 3", ['event'], false],
  ['push the fix to the main branch', ['event'], false],
  // Implies a product where a thing is one that can be sold or bought, or is put in a shop's catalog.
  ["Add 'Community Hall Rental' as something we can charge people for", ['product'], true],
  ['Create a Day Pass item we can sell at the front desk', ['product'], true],
  ['add a new item to our catalog: 10-class yoga pass', ['product'], true],
  ["Add the Mother's Day banner image to our shop-site repo", ['product'], false],
  ['add a line item to invoice in_12', ['product'], false],
  // Implies a customer where someone is put where one bills people.
  ['Rosa Delgado (rosa@greenrow.org) just joined; add her to our billing records', ['customer'], true],
  ['Set up Dana Whitfield in billing so we can charge her for the class', ['customer'], true],
  ['Add Maria Lopez as a payer for the field trip fees', ['customer'], true],
  ['Jen moved over to billing, so please take her off the Supplies project.', ['customer'], false],
  ['update the billing address on my account', ['customer'], false],
  // Implies a collaborator where a person's access to a repository is taken away.
  ["remove their access to the private repo 'billing-service'", ['collaborator'], true],
  ["Take kmorgan-cpa's access to tax-calc away.", ['collaborator'], true],
  ['take her off the recycling-calendar repo', ['collaborator'], true],
  ['remove the access restrictions on the main branch', ['collaborator'], false],
  // Implies a parent where a thing that exists is made another's child.
  ['Make task 3321 a subtask of 3300', ['parent'], true],
  ["Nest 'Invoice #2231' under the 'Acme Corp order' task", ['parent'], true],
  ["the 'Buy trophies' task should sit underneath 'Prepare awards night'", ['parent'], true],
  ['list the subtasks of task 3300', ['parent'], false],
  ['add a task called Nest box cleaning to the project', ['parent'], false],
  ['put member cus_Q8hT2 on the £10 monthly dues plan', ['subscription'], true],
  ['put the $10 monthly price on the product', ['subscription'], false],
  // Implies a fork where a copy of a thing is made into one's own account or organization.
  ['copy torvalds/linux into my account', ['fork'], true],
  ['Copy the league repo into our harlow-rfc org so we can tweak it', ['fork'], true],
  ['make my own copy of the setlist-app project', ['fork'], true],
  ['copy the invoice template into a new project', ['fork'], false],
  // Implies parsing and validating where text is asked whether it is well written.
  ['Is this JQL even valid: project = ML ORDER BY rank', ['parse'], true],
  ['check my query is syntactically OK before I save it', ['validate'], true],
  ['is my bot token still valid?', ['validate'], false],
  // Implies secret scanning alerts for credentials leaked or committed, an expiration for an account set to stop working at a date, and archiving for a thing put into storage.
  ['did anyone commit an API key in acme/loader? show me what GitHub flagged', ['scanning', 'alert'], true],
  ['rotate the deploy key on acme/api', ['scanning'], false],
  ['the guest account should stop working on June 30', ['expiration'], true],
  ['the nightly job stopped working on Monday', ['expiration'], false],
  ['Put the PODCAST2022 project into cold storage', ['archive'], true],
  // Implies an invoice item where an amount is added onto someone's next bill.
  ["Tack a one-time $25 setup fee onto cus_Nw88's next bill.", ['invoiceitem'], true],
  ['Add a $40 charge to customer cus_ABC so it shows up on their next invoice', ['item'], true],
  ['what will their next bill look like?', ['invoiceitem'], false],
  // Implies a registration where a token is asked for to register with.
  ['I need a token to register a new runner on the builder repo', ['registration'], true],
  ['register the webhook and give me its token', ['registration'], false],
  // Implies marking as read where unread things are cleared or marked seen.
  ['I have hundreds of unread GitHub pings, clear them all', ['mark', 'read'], true],
  ['flag everything as seen, my inbox is a mess', ['mark'], true],
  ['how many unread messages do I have in #ops?', ['mark'], false],
];

describe('parseQuery', () => {
  it('reads implied actions from everyday phrases', () => {
    expect(parseQuery('get rid of the stale branch').action).toBe('delete');
    expect(parseQuery('show me the open pull requests').action).toBe('list');
    expect(parseQuery('stop the deploy that is running').action).toBe('cancel');
    expect(parseQuery('a brand new label').action).toBe('create');
    expect(parseQuery('rename the default branch').action).toBe('update');
    // A quantifier over what is fetched asks for many.
    expect(parseQuery('pull every open leaked-credential alert across the org').action).toBe('list');
    expect(parseQuery('retrieve all leaked-credential alerts in the org').action).toBe('list');
    expect(parseQuery('pull the open leaked-credential alert 5').action).toBe('get');
    // A noun used as a verb before a thing named by its value: "end subscription sub_1MzHq" cancels it; not "the end date".
    expect(parseQuery('end subscription sub_1MzHq right now, not at period end').action).toBe('cancel');
    expect(parseQuery('end the subscription sub_1MzHq').action).toBe('cancel');
    expect(parseQuery('what is the end date of sub_1MzHq').action).not.toBe('cancel');
  });

  it('reads words that only say when ("right now", "at the moment") as no words to match', () => {
    for (const query of ['who is in #general at the moment?', 'who is in #general right now?', 'who is in #general currently?']) {
      expect(parseQuery(query).terms.map((t) => t.word), query).toEqual(['user']);
    }
  });

  it('implies the record of changes where it asks who did a thing and when, not when someone did another', () => {
    expect(terms('Who bumped the priority on SUP-9, and when?')).toEqual(expect.arrayContaining(['changelog', 'history']));
    expect(parseQuery('who holds a seat and when they last used it').terms.some((t) => t.word === 'changelog')).toBe(false);
  });

  it('reads nothing let in without a thing first, pushing barred, or things required before a merge, as a rule that protects the place, set', () => {
    const read = parseQuery('Nothing should land on main in acme/core without two approving reviews.');
    expect(read.action).toBe('update');
    expect(read.terms.map((t) => t.word)).toContain('protection');
    expect(terms('nobody can push to main without an approved review')).toContain('protection');
    expect(terms('merge PR 5 without waiting for CI')).not.toContain('protection');
    // Pushing barred protects the branch too.
    expect(terms('nobody should be able to force-push to main')).toContain('protection');
    expect(terms("don't let anyone push to production")).toContain('protection');
    expect(terms('push the release to production')).not.toContain('protection');
    // So do things required before anything merges.
    expect(terms('Require two approving reviews and passing checks before anything merges into main')).toContain('protection');
    expect(terms('merging should be blocked until CI is green')).toContain('protection');
    expect(terms('review the PR before merging it')).not.toContain('protection');
    // What is pushed to or merged into is a branch; "nobody" names no one.
    expect(terms('nobody can push straight to master on project 4412')).toEqual(expect.arrayContaining(['protection', 'branch']));
    expect(parseQuery('nobody can push straight to master').protects).toBe(true);
    expect(terms('nobody can push straight to master')).not.toContain('nobody');
    expect(parseQuery('push the release to production').protects).toBeUndefined();
  });

  it('reads what a thing asked for lets someone do ("a link where they can update their card") as context that counts less', () => {
    const weightOf = (q: string, word: string) => parseQuery(q).terms.find((t) => t.word === word)?.weight;
    expect(weightOf('give cus_R2 a self-service link where they can update their card', 'card')).toBe(0.25);
    expect(weightOf('make a page where customers can see their invoices', 'customers')).toBe(1);
    expect(weightOf('update the card on cus_R2', 'card')).toBe(1);
    expect(weightOf('where can I update my card?', 'card')).toBe(1);
  });

  it('reads who may do a thing narrowed ("only past contributors can comment", "limit who can comment") as a restriction set', () => {
    for (const query of ['for 24 hours only people who have contributed before should be able to comment', 'limit who can comment on the repo to past contributors']) {
      const read = parseQuery(query);
      expect(read.action, query).toBe('update');
      expect(read.terms.map((t) => t.stem), query).toEqual(expect.arrayContaining(['restrict', 'interact']));
    }
    expect(terms('only show issues I can comment on')).not.toContain('restriction');
  });

  it('reads a plural in a clause that only says when or why as no list asked for', () => {
    expect(parseQuery("what will cus_A1's next bill look like after switching plans?").action).toBe('get');
    expect(parseQuery('what are the plans after the switch?').action).toBe('list');
  });

  it.each(IMPLIED_BY_WHAT_IS_SAID)('reads %j as implying %j: %s', (query, words, implied) => {
    for (const word of words) expect(terms(query).includes(word), word).toBe(implied);
  });

  it('weighs a word that says a thing is old or out of use ("the stale branch") as qualifying it, not as a kind of thing', () => {
    const weightOf = (q: string, word: string) => parseQuery(q).terms.find((t) => t.word === word)?.weight;
    expect(weightOf('get rid of the stale branch feature/x in acme/jobs', 'stale')).toBe(0.25);
    expect(weightOf('delete the old Cohort 10 calendar', 'old')).toBe(0.25);
    expect(weightOf('get rid of the stale branch feature/x in acme/jobs', 'branch')).toBe(1);
  });

  it('reads a thing of no name yet asked to be given after a clause ("Jess is new, get me a link …") as one to make, as at the start', () => {
    expect(parseQuery('Jess is a new walker, get me a link I can text her').action).toBe('create');
    expect(parseQuery('get me a link I can text her').action).toBe('create');
    expect(parseQuery('Jess is a new walker, get me the link to her profile').action).not.toBe('create');
  });

  it('reads a thing moved between two places of one kind as what they hold, named by no word of its own', () => {
    expect(parseQuery('Shift the book club from my personal calendar over to the Library calendar').unnamed).toBe(true);
    expect(parseQuery('move the supplier call off my calendar and onto the Imports one').unnamed).toBe(true);
    expect(parseQuery('move the book club meeting to Friday').unnamed).toBeUndefined();
    expect(parseQuery('move issue 7 from the backlog to the Done column').unnamed).toBeUndefined();
  });

  it('implies sending in full where a thing is emailed to someone, as email the verb implied it only in part', () => {
    const weightOf = (q: string) => parseQuery(q).terms.find((t) => t.word === 'send')?.weight;
    expect(weightOf('email the finalized invoice to the client now')).toBe(1);
    expect(weightOf('email the Nguyen couple their final balance invoice')).toBe(1);
    expect(weightOf('email receipts for cus_Q1')).toBe(0.5);
    expect(weightOf('what is the email address of cus_Q1?')).toBeUndefined();
  });

  it('implies the people a thing is assignable to where it asks who it may be handed to', () => {
    const stems = (q: string) => parseQuery(q).terms.map((t) => t.stem);
    expect(stems('Who can I hand OPS tickets to?')).toContain('assign');
    expect(stems('who are the people I can give LAB tickets to?')).toContain('assign');
    expect(stems('who handed me this ticket?')).not.toContain('assign');
  });

  it('implies the rate limit where requests are throttled or counted as left', () => {
    expect(terms('How many API calls do I have left this hour?')).toEqual(expect.arrayContaining(['rate', 'limit']));
    expect(terms('how many more requests before it gets throttled?')).toEqual(expect.arrayContaining(['rate', 'limit']));
    expect(terms('which requests are left in the review queue?')).not.toContain('rate');
  });

  it('implies the words catalogues write for many at once ("in one go": bulk) and for one currency against another ("eur to usd": exchange)', () => {
    expect(terms('create these 12 tickets in one go')).toEqual(expect.arrayContaining(['bulk', 'batch']));
    expect(terms('am I allowed to delete issues in project OPS?')).toContain('permission');
    expect(terms('delete issue OPS-5')).not.toContain('permission');
    expect(terms('who is able to view issues in the SEC project?')).toContain('permission');
    expect(terms('I need to be able to reopen issues')).not.toContain('permission');
    expect(terms('create a ticket')).not.toContain('bulk');
    expect(terms('eur to usd rate?')).toEqual(expect.arrayContaining(['exchange', 'currency']));
    expect(terms('convert the doc to pdf')).not.toContain('exchange');
  });

  it('reads "stop bob from pushing" as blocking him, and "stop the deploy" as cancelling it', () => {
    expect(terms('stop spammer42 from commenting on our repos')).toEqual(expect.arrayContaining(['block', 'restrict']));
    expect(terms('stop the deploy from the main branch')).not.toContain('block');
  });

  it('reads what follows a command\'s colon as what the thing is to hold, a name, not the request', () => {
    const parsed = parseQuery('Create these five tickets in one go: setup DNS, provision DB, load test');
    expect(parsed.terms.find((t) => t.word === 'provision')).toMatchObject({ name: true });
    expect(parsed.terms.find((t) => t.word === 'tickets')).toMatchObject({ name: false });
    // A label before the colon is no command: what follows it is the request.
    expect(parseQuery('Step 1: delete the stale branch').terms.find((t) => t.word === 'branch')).toMatchObject({ name: false });
  });

  it('reads a word of no action before the preposition it takes as a command ("comment on SUP-9"), not a plural noun or a subject', () => {
    expect(parseQuery('comment on SUP-902 with the stack trace')).toMatchObject({ command: 'comment', commandVerb: true });
    expect(parseQuery('issues on my board').command).toBeUndefined();
    expect(parseQuery('member on sub_1 is moving away, end their membership').command).toBeUndefined();
    expect(parseQuery("I'm on call and need every open alert").command).toBeUndefined();
  });

  it('reads the state a thing is to be made as a field a write sets ("make acme/api private"), not one it is to be again', () => {
    expect(parseQuery('make acme/api private').states).toEqual(['privat']);
    expect(parseQuery('make the needs-design tag pink instead of grey').states).toEqual(['pink']);
    expect(parseQuery('I archived the wrong project, make it active again').states).toBeUndefined();
    expect(parseQuery('make bob a maintainer of the platform team').states).toBeUndefined();
    // Marked as in a state too.
    expect(parseQuery("mark 'Icon set v2' as complete").states).toEqual(['complet']);
    expect(parseQuery('Mark legacy-billing repo as archived (read-only)').states).toEqual(['archiv']);
    expect(parseQuery('mark my calendar for Friday').states).toBeUndefined();
    // A new thing made in a state: its adjective is a field too, not a copy's.
    expect(parseQuery('create a new private repo for our client').states).toEqual(['privat']);
    expect(parseQuery('drop a private copy of that meeting into my calendar').states).toBeUndefined();
  });

  it('reads a dash as the end of a clause, so the verb after it leads its own ("Bluebird just signed — email them invoice in_1")', () => {
    expect(parseQuery('Bluebird just signed — email them invoice in_1Pxyz right now').verbsAt).toEqual([0, 3]);
    expect(parseQuery('a token got pasted into a public gist - I need that credential killed').verbsAt?.length).toBe(2);
  });

  it('reads what a message says, after a saying verb\'s "that" or after "saying", as a name, not the request', () => {
    const parsed = parseQuery('comment on DOC-55 that the API reference has been updated');
    expect(parsed.terms.find((t) => t.word === 'updated')).toMatchObject({ name: true });
    expect(parsed.terms.find((t) => t.word === 'comment')).toMatchObject({ name: false });
    expect(parseQuery('leave a comment saying the partition is reloaded').terms.find((t) => t.word === 'partition')).toMatchObject({ name: true });
    // "that" before a thing points at it.
    expect(parseQuery('comment on that pull request').terms.find((t) => t.word === 'request')).toMatchObject({ name: false });
    expect(beforeMessage('post in #staff that we need two nurses tonight')).toBe('post in #staff that ');
    // After a verb that tells someone, "that" opens what is told, whatever follows it.
    expect(parseQuery('tell #pickup-crew that Saturday pickup moves to 10am').terms.find((t) => t.word === 'pickup')).toMatchObject({ name: true });
    expect(parseQuery('tell #pickup-crew that Saturday pickup moves to 10am').action).toBe('create');
  });

  it('reads a clause that tells what was done as context, and a mistake told with nothing else asked as a request to undo it', () => {
    expect(parseQuery("I put the 'urgent' tag on task 999 by mistake, take it off").action).toBe('delete');
    expect(parseQuery('we archived the old board yesterday, now list its cards').action).toBe('list');
    expect(parseQuery('I added the wrong label by mistake').action).toBe('delete');
    expect(parseQuery('I locked the conversation on issue 512 too early, let people comment again').undone).toEqual(['lock']);
    // Without a word for a mistake, nothing is undone; a relative clause's "were" tells nothing.
    expect(parseQuery('I locked the conversation on issue 512').undone).toBeUndefined();
    expect(parseQuery('show me issues that were closed yesterday').action).toBe('list');
  });

  it('implies the words for a change of state where it asks which states a thing can move to', () => {
    const implied = (q: string) => parseQuery(q).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied('what statuses can ENG-501 move to')).toContain('transition');
    expect(implied('which statuses can DEV-300 go to next from where it is?')).toContain('transition');
    expect(implied('What workflow steps can VET-5 move to from where it is now?')).toContain('transition');
    expect(implied('which status changes are available on ENG-7 now?')).toContain('transition');
    expect(implied('what status changes can I make on ENG-7?')).toContain('transition');
    // Without a word for the states: what it can be moved to, or what is open from where it is.
    expect(implied('What can I move LAND-88 to from where it is now?')).toContain('transition');
    expect(implied('what can MOB-2231 move to?')).toContain('transition');
    expect(implied('What status moves are available to me from where it is now?')).toContain('transition');
    expect(implied('what statuses can I move QR-512 to')).toContain('transition');
    expect(implied('what can I attach to MOB-22?')).not.toContain('transition');
    expect(implied('list all statuses')).not.toContain('transition');
    expect(implied('show the status changes on ENG-7 last week')).not.toContain('transition');
  });

  it("reads \"what's on my calendar\" as the many things in a place, the place as where they are", () => {
    const read = parseQuery("what's on my calendar next week");
    expect(read.action).toBe('list');
    expect(read.terms.find((t) => t.word === 'calendar')?.scope).toBe(true);
    expect(parseQuery('what is the calendar id').terms.find((t) => t.word === 'calendar')?.scope).toBeUndefined();
  });

  it('reads "an update" as a noun, what the status of a thing says, and "update it" as the act', () => {
    const read = parseQuery("post an 'on track' update on the client project");
    expect(read.action).toBe('create');
    expect(read.terms.map((t) => t.word)).toEqual(expect.arrayContaining(['update', 'status']));
    expect(parseQuery('update the client project').action).toBe('update');
    expect(parseQuery('update the client project').terms.map((t) => t.word)).not.toContain('status');
  });

  it('reads "pull" starting a command before its object as fetching, and "export all" as a list; not "pull request", pulling someone in or exporting one thing', () => {
    expect(['get', 'list']).toContain(parseQuery('pull the last 100 messages from #deploys').action);
    expect(['get', 'list']).toContain(parseQuery('pull every payout sent last month').action);
    expect(['get', 'list']).not.toContain(parseQuery('pull the latest main into its branch').action);
    expect(parseQuery('pull request 42 needs a review').action).not.toBe('get');
    expect(parseQuery('export all balance transactions for January').action).toBe('list');
    expect(parseQuery('dump all fields incl custom ones').action).toBe('list');
    expect(parseQuery('export the acme/api repository').action).not.toBe('list');
  });

  it('reads an irregular past form of an action word as context, as a regular one ("made", as "created")', () => {
    const made = parseQuery('the intern made a throwaway repo in our org, get rid of it').terms.find((t) => t.word === 'made');
    expect(made?.weight).toBeLessThan(1);
  });

  it('reads keeping a search to run again as making a filter', () => {
    const read = parseQuery("save my overdue-tasks search so I can reuse it, call it 'Overdue'");
    expect(read.action).toBe('create');
    expect(read.terms.map((t) => t.word)).toContain('filter');
    expect(parseQuery('search issues for login bugs').terms.map((t) => t.word)).not.toContain('filter');
  });

  it('implies a comparison where two things are set against each other ("main vs develop", "master...develop") or said to differ, not a currency pair', () => {
    const implied = (q: string) => parseQuery(q).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied('diff main vs develop')).toContain('compare');
    expect(implied('git diff master...develop')).toContain('compare');
    expect(implied('convert EUR vs USD')).not.toContain('compare');
    expect(implied('show the main branch')).not.toContain('compare');
    // What changed or differs between two things.
    expect(implied('what changed between release-1.4 and main in acme/web')).toContain('compare');
    expect(implied("What's different between the v2024 and v2025 tags?")).toContain('compare');
    expect(implied('change the meeting between Tom and Ana to 3pm')).not.toContain('compare');
  });

  it('reads asking what a thing changed as its changes, read, and a diff', () => {
    for (const query of ['What exactly changed in commit 9f8e7d6?', 'What did MR 14 on our club-site change?']) {
      const read = parseQuery(query);
      expect(read.terms.find((t) => t.stem === 'chang'), query).toMatchObject({ weight: 1 });
      expect(read.terms.find((t) => t.stem === 'chang')?.action, query).toBeUndefined();
      expect(read.terms.map((t) => t.word), query).toContain('diff');
    }
    expect(terms('change the title of MR 14')).not.toContain('diff');
  });

  it('reads lower-case words joined by underscores as words, and other identifiers as values', () => {
    expect(terms('gh api rate_limit')).toEqual(['gh', 'api', 'rate', 'limit']);
    expect(terms('show cus_K8s2 and rate_limit2')).not.toContain('limit');
  });

  it('takes the earliest action when several are named', () => {
    expect(parseQuery('delete the comment I added').action).toBe('delete');
  });

  it('reads a bare plural as a list; a question word alone says no action', () => {
    expect(parseQuery('my PRs').action).toBe('list');
    expect(parseQuery('who am I?').action).toBeUndefined();
    expect(parseQuery('what is the default branch?').action).toBe('get');
  });

  it('reads no list from a plural inside a name ("the stale-issues workflow", "the Projects calendar")', () => {
    expect(parseQuery('pause the stale-issues workflow').action).toBeUndefined();
    expect(parseQuery('shift the kickoff meeting over to the Projects calendar').action).not.toBe('list');
  });

  it('takes the verb that starts a clause, after a lead-in, over action words later on', () => {
    expect(parseQuery('I need to add Sam to the repo').action).toBe('create');
    expect(parseQuery('#old-project is dead, remove the channel').action).toBe('delete');
    expect(parseQuery('approve pull request 58, looks good to me').action).toBeUndefined();
    expect(parseQuery('get rid of that message I posted').action).toBe('delete');
  });

  it('reads a question as a read, whatever verb it uses later: a list when it asks after things in the plural', () => {
    expect(parseQuery('does alice have write access on the repo?').action).toBe('get');
    expect(parseQuery('what channels exist in our workspace?').action).toBe('list');
    expect(parseQuery('who changed the status on PROJ-99?').action).toBeUndefined();
    expect(parseQuery('can you add priya to the invite?').action).toBe('create');
  });

  it("reads a word of no action before an object as the command's verb, and before another noun as a noun", () => {
    expect(parseQuery('archive legacy-api, we are not maintaining it').command).toBe('archiv');
    expect(parseQuery('pin the release checklist message').command).toBe('pin');
    expect(parseQuery('default payment method of customer alice').command).toBeUndefined();
    expect(parseQuery('review status of PR 5').command).toBeUndefined();
    expect(parseQuery('delete the repo').command).toBeUndefined();
  });

  it('reads everyday verbs for keeping, releasing and sharing something as creating it', () => {
    expect(parseQuery('store the NPM_TOKEN secret in acme/api').action).toBe('create');
    expect(parseQuery('ship v2.3.0 as a release').action).toBe('create');
    // Sharing grants access or posts; a later verb in a reason clause does not say what to do.
    expect(parseQuery('share my work calendar with jane@acme.com so she can edit it').action).toBe('create');
  });

  it('reads a question after people as a read of one or many', () => {
    expect(parseQuery('who reviewed PR 20?')).toMatchObject({ action: undefined, reads: true });
    expect(parseQuery('request a review from alice').reads).toBeUndefined();
  });

  it('marks a bare singular word between a command\'s verb and where it goes as its object, perhaps a name', () => {
    const object = (query: string) => parseQuery(query).terms.find((t) => t.bareObject)?.word;
    expect(object('take alex off the frontend team')).toBe('alex');
    expect(object('add sam as a developer on project 42')).toBe('sam');
    expect(object('remove bob from the acme organization')).toBe('bob');
    // A capitalised name too, and two joined by "and".
    expect(object('add Priya to #design')).toBe('priya');
    const objects = (query: string) => parseQuery(query).terms.filter((t) => t.bareObject).map((t) => t.word);
    expect(objects('add maria and tom to #design-review')).toEqual(['maria', 'tom']);
    expect(objects('add Priya, Tom and Wei to #retro-sprint-14')).toEqual(['priya', 'tom', 'wei']);
    expect(objects('add priya tom wei to #retro')).toEqual([]);
    // A capitalised name that ends in s is no plural.
    expect(objects('add Dana and Luis to #month-end-close')).toEqual(['dana', 'luis']);
    expect(objects('add bugs and urgent labels to issue 5')).toEqual([]);
    // A user name of words joined by hyphens is one.
    expect(objects('take mikeb-dev off the website repo')).toEqual(['mikeb', 'dev']);
    expect(objects('put maria-lopez on issue 17')).toEqual(['maria', 'lopez']);
    expect(objects('take mikeb dev off the website repo')).toEqual([]);
    // With an article, a plural, or in a read, it is a thing.
    expect(object('remove the label from issue 5')).toBeUndefined();
    expect(object('remove labels from issue 5')).toBeUndefined();
    expect(object('show alex on the team')).toBeUndefined();
    // A word for someone's role is a person however it is introduced, unless a clause of its own holds it.
    expect(object('add the new night shift lead (U07NIGHT) to #night-ops')).toBe('lead');
    expect(object('remove the ex-contractor from #client-zenith')).toBe('contractor');
    expect(object('revoke the invite we sent the contractor to join the org')).toBeUndefined();
    // So is a word of the form that names someone by what they do, where it heads what is put somewhere.
    expect(object('add the florist and the DJ to #smith-jones-wedding')).toBe('florist');
    expect(object('add the four panel interviewers to #loop-samira-k')).toBe('interviewers');
    expect(parseQuery('add the florist to #wedding').terms.find((t) => t.bareObject)?.personByForm).toBe(true);
    // Not a singular in -er, which names as many things, nor a word before the head.
    expect(object('change the #team-phoenix header to say hi')).toBeUndefined();
    expect(object('add the florist invoices to the project')).toBeUndefined();
    // A user name of an initial and a name is a person even where it ends in s.
    expect(object('take bwells off our repo')).toBe('bwells');
  });

  it('reads someone among the things a command puts in a place, by a name or a pronoun, as a person placed', () => {
    const objects = (query: string) => parseQuery(query).terms.filter((t) => t.bareObject).map((t) => t.word);
    expect(objects('Add Tom, Aisha and the new drafter to #proj-riverside-library')).toEqual(['tom', 'aisha']);
    expect(objects('Add Dave (U07DAVE) to #safety-briefings')).toEqual(['dave']);
    expect(parseQuery('so add him to #eng-general and #oncall').placesPerson).toBe(true);
    expect(parseQuery("remove her from the ticket's notification list").placesPerson).toBe(true);
    // Not the verb's own particle ("log him out": signed out).
    expect(parseQuery('log him out everywhere').placesPerson).toBeUndefined();
    // Not a thing's name that goes on to its noun, a name after a thing, a possessive "her", nor someone added to "it" (a follower).
    expect(objects('Put the Q4 Infrastructure project into the Engineering portfolio')).toEqual([]);
    expect(objects('Upload the invoice PDF for Brightline into the channel')).toEqual([]);
    expect(parseQuery('remove her saved card pm_1NcX from her account').placesPerson).toBeUndefined();
    expect(parseQuery('add her to it').placesPerson).toBeUndefined();
    // Nor in a read, or a verb that keeps someone from something ("stop him from …").
    expect(parseQuery('stop him from interacting with me').placesPerson).toBeUndefined();
  });

  it("reads the words before a group's noun in a who-question as its name (\"who's on the platform team?\")", () => {
    const term = (query: string, word: string) => parseQuery(query).terms.find((t) => t.word === word);
    expect(term("who's on the platform team", 'platform')).toMatchObject({ name: true });
    expect(term("who's on the platform team", 'team')).toMatchObject({ name: false, weight: 1 });
    expect(term('who changed the platform settings', 'platform')?.name).toBe(false);
  });

  it('reads a hyphenated word written as one word ("a to-do") as that word, not a name', () => {
    expect(parseQuery('add a to-do to my list').terms.find((t) => t.word === 'todo')).toMatchObject({ name: false, weight: 1 });
  });

  it('marks what a new thing\'s title or a message says, and reads no "whenever" there as asking to be told of changes', () => {
    const parsed = parseQuery('Open a ticket in VET: X-ray viewer freezes whenever we export images');
    expect(parsed.terms.find((t) => t.word === 'viewer')?.said).toBe(true);
    expect(parsed.terms.find((t) => t.word === 'ticket')?.said).toBeUndefined();
    expect(parsed.terms.map((t) => t.word)).not.toContain('webhook');
    expect(parseQuery('notify our endpoint whenever anything changes in project 55').terms.map((t) => t.word)).toContain('webhook');
  });

  it("implies a profile for a person's own details, not for a thing's", () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied("set my status to 'in a meeting'")).toContain('profile');
    expect(implied('change her job title to Lead')).toContain('profile');
    expect(implied('rename the issue title')).not.toContain('profile');
    expect(implied('change the status of PROJ-4')).not.toContain('profile');
  });

  it('leaves out a verb that is not to be done ("without merging", "instead of waiting")', () => {
    expect(parseQuery('close PR 301 without merging it').action).toBe('update');
    expect(terms('close PR 301 without merging it')).not.toContain('merging');
    expect(terms('charge the card now instead of waiting for the retry')).not.toContain('waiting');
    expect(terms('pause the workflow but don\'t delete it')).not.toContain('delete');
    // Past a wish in between ("don't want to", "never meant to").
    expect(terms("I don't want to delete it, just archive it")).not.toContain('delete');
    expect(parseQuery("I don't want to delete it, just archive it").action).not.toBe('delete');
    // Nor does a phrase say what to do ("get rid of": delete).
    expect(parseQuery('pause the workflow but don\'t get rid of it').action).toBeUndefined();
    // A noun after "without" still counts.
    expect(terms('who can get into our repos without being a member')).toContain('member');
  });

  it('says a command\'s first word is surely a verb before an article or when a place follows its object, not before its number alone', () => {
    expect(parseQuery('protect the main branch').commandVerb).toBe(true);
    expect(parseQuery('tag v1.8.0 on master').commandVerb).toBe(true);
    expect(parseQuery('issue 42 status').commandVerb).toBeUndefined();
    expect(parseQuery('invoice in_1Abc').commandVerb).toBeUndefined();
  });

  it("reads a verb no lexicon knows, heading the query before its object, as what to do: later action words are context, a plural its object", () => {
    expect(parseQuery('hide the team calendar from my list view').action).toBeUndefined();
    expect(parseQuery('staple the screenshots onto ticket QA-55').action).toBeUndefined();
    expect(parseQuery('hide the team calendar from my list view').commandVerb).toBe(true);
    // A known verb still says it, and a noun phrase still lists.
    expect(parseQuery('delete the team calendar from my list').action).toBe('delete');
    expect(parseQuery('dependabot alerts for acme/web').action).toBe('list');
  });

  it('reads a collection of a kind of thing as a list of them: "the audit trail", "the event feed", "login history"', () => {
    expect(parseQuery('show me the audit trail').action).toBe('list');
    expect(parseQuery('get the login history').action).toBe('list');
    expect(parseQuery('show the event feed for customer cus_1').action).toBe('list');
    // Alone, it is one thing: "the log" of a job.
    expect(parseQuery('show the log').action).toBe('get');
  });

  it('reads a way of sending that starts a command as sending: "email invoice in_789 to the customer" implies send', () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied('email invoice in_789 to the customer')).toContain('send');
    expect(implied('email it to them again')).toContain('send');
    expect(implied("what is the customer's email?")).not.toContain('send');
  });

  it('reads tagging a thing named by its number as labelling it, and tagging a version as making a tag', () => {
    const implied = (query: string) => parseQuery(query).terms.filter((t) => t.at < 0).map((t) => t.word);
    expect(implied('tag issue 52 as good first issue')).toContain('label');
    expect(parseQuery('tag issue 52 as good first issue').action).toBe('create');
    expect(implied('tag v1.8.0 on master')).not.toContain('label');
  });

  it('reads a statement of what the speaker must do as the request, not a question', () => {
    expect(parseQuery('I have to delete the gist').action).toBe('delete');
    expect(parseQuery('we can close issue 5 now').action).toBe('update');
    expect(parseQuery('have I starred acme/api?').action).not.toBe('create');
  });

  it('says when a question is answered yes or no', () => {
    expect(parseQuery('does octocat follow torvalds?').yesNo).toBe(true);
    expect(parseQuery('is PR 9 merged?').yesNo).toBe(true);
    expect(parseQuery('which repos does octocat follow?').yesNo).toBeUndefined();
    expect(parseQuery('follow torvalds').yesNo).toBeUndefined();
  });

  it('says where the verb of each clause of a command stands, after any lead-in, and none in a question', () => {
    expect(parseQuery('star acme/api').verbsAt).toEqual([0]);
    expect(parseQuery('please star acme/api').verbsAt).toEqual([1]);
    expect(parseQuery('the build is green, merge PR 12').verbsAt).toEqual([0, 4]);
    expect(parseQuery('has PR 90 been merged?').verbsAt).toBeUndefined();
  });

  it('reads phrasal verbs around their object', () => {
    expect(parseQuery('take alex off the frontend team').action).toBe('delete');
    expect(parseQuery('take away the seats for alice and bob').action).toBe('delete');
    expect(parseQuery('shut down the staging runner').action).toBe('cancel');
    expect(parseQuery('clean up the stale feature/old-nav branch').action).toBe('delete');
    expect(parseQuery('kick off the nightly build').action).toBe('create');
    // Split around a person, the same words remove: "kick carol off the repo".
    expect(parseQuery('kick carol off the acme/api repo').action).toBe('delete');
    // Split with nothing after it, it starts: "kick the nightly build off", "kick it off now".
    expect(parseQuery('kick the nightly build off').action).toBe('create');
    expect(parseQuery('kick it off now').action).toBe('create');
    // The verb stays a word to match (an operation may be named for it: "kick"), the particle does not.
    expect(terms('kick him out of the channel')).toEqual(expect.arrayContaining(['kick', 'channel']));
    expect(terms('kick him out of the channel')).not.toContain('out');
  });

  it('lets "who" ask for people without requiring the word', () => {
    const implied = parseQuery('who is in the platform team?').terms.filter((t) => t.optional);
    expect(implied.flatMap(wordsOf)).toContain('member');
  });

  it('sees the signed-in user', () => {
    expect(parseQuery('which repos do I have access to?').self).toBe(true);
    expect(parseQuery('list repos of octocat').self).toBe(false);
    // The one asking as one of several people is no scope of its own.
    expect(parseQuery('Are Dana, Lee and I all free Thursday afternoon?').self).toBe(false);
    expect(parseQuery('when are both me and the Globex AE open?').self).toBe(false);
    expect(parseQuery('when am I free on Thursday?').self).toBe(true);
    // The one asking wanting a thing says nothing of whose it is; wanting to do a thing, or a thing of theirs, does.
    expect(parseQuery('I want every issue in the ml-pipeline repo').self).toBe(false);
    expect(parseQuery('I really need the release notes for v2').self).toBe(false);
    expect(parseQuery('I want to leave the acme org').self).toBe(true);
    expect(parseQuery('I want my issues').self).toBe(true);
  });

  it('leaves out quoted titles, identifiers, slugs and numbers, and keeps acronyms as words', () => {
    expect(terms("tick off the 'Send invoices' task")).toEqual(['tick', 'task', 'complete', 'done']);
    expect(parseQuery('refund cus_K8s2Lm for order #1234 in acme/api').terms.filter((t) => !t.idPrefix).map((t) => t.word)).toEqual(['refund', 'order']);
    expect(terms('what PRs are open')).toContain('prs');
    // A term quoted as one the writer is unsure of names the kind of thing: its words are read.
    expect(terms("open a 'PR' from my branch")).toContain('pr');
    expect(terms("add an 'ssh key' to my account")).toEqual(expect.arrayContaining(['ssh', 'key']));
    expect(terms("add the 'bug' label to issue 5")).not.toContain('bug');
  });

  it("reads an identifier's prefix as a word for what it names, the identifier itself as no word", () => {
    const prefix = parseQuery('did payment ch_3MqPe go through?').terms.find((t) => t.idPrefix);
    expect(prefix).toMatchObject({ word: 'ch', weight: 0.5 });
    expect(parseQuery('refund the order').terms.some((t) => t.idPrefix)).toBe(false);
    expect(parseQuery('read src/app_config.ts').terms.some((t) => t.idPrefix)).toBe(false);
  });

  it('reads a capitalised word after an article or a possessive as the name of a thing, not of a person', () => {
    const people = (query: string) => parseQuery(query).terms.some((t) => t.optional && wordsOf(t).includes('member'));
    expect(people('add a Blocked column to the board')).toBe(false);
    expect(people('archive our Radar blocklist')).toBe(false);
    expect(people('add Dana to the board')).toBe(true);
  });

  it('marks capitalised words inside the sentence as names', () => {
    const dana = parseQuery('move my meeting with Dana').terms.find((t) => t.word === 'dana');
    expect(dana?.name).toBe(true);
    expect(parseQuery('Meeting notes').terms.find((t) => t.word === 'meeting')?.name).toBe(false);
  });

  it('reads the words after a preposition that follows the resource as its scope', () => {
    const scope = (q: string) => parseQuery(q).terms.filter((t) => t.scope).map((t) => t.word);
    expect(scope('add labels to an issue')).toEqual(['issue']);
    expect(scope('a brand new repository under my account')).toEqual(['account']);
    expect(scope('list every repository that belongs to an organization')).toEqual(['organization']);
    // Before the resource is named, or an action word in any form, there is no scope yet.
    expect(scope('who is in the platform team?')).toEqual([]);
    expect(scope('I need jamie@acme.com added to the Engineering team')).toEqual([]);
    // "to" before a verb is no preposition.
    expect(scope('ask the app to delete the run')).toEqual([]);
  });

  it('reads a scope the query gives as "my …" as the signed-in user again: it counts when matched and costs nothing when not', () => {
    const account = parseQuery('which repositories are under my account').terms.find((t) => t.word === 'account');
    expect(account).toMatchObject({ scope: true, optional: true });
    expect(parseQuery('which repositories are in the acme account').terms.find((t) => t.word === 'account')?.optional).toBeUndefined();
  });

  it('reads "logged in" and "signed in" as the signed-in user, not as words to match', () => {
    const q = parseQuery('who am I logged in as');
    expect(q.self).toBe(true);
    expect(q.terms.map((t) => t.word)).not.toContain('logged');
    expect(parseQuery('which account is signed in?').self).toBe(true);
    // Which account, or what a credential, is signed in as asks who the signed-in user is: the account word is a user.
    const words = (query: string) => parseQuery(query).terms.filter((t) => !t.optional).map((t) => t.word);
    expect(words('which account am I logged in as')).toEqual(['user']);
    expect(words('which account is this token even logged in as?')).toEqual(['user', 'token']);
    expect(words('which account has the most repos')).toContain('account');
  });

  it('reads a file name or path as saying the thing is a file', () => {
    expect(terms('upload a new version of README.md')).toContain('file');
    expect(terms('read config/settings.yaml on main')).toContain('file');
    expect(terms('read the config/settings.yaml file').filter((w) => w === 'file')).toHaveLength(1);
    expect(terms('invite jo@example.com to acme.io')).not.toContain('file');
  });

  it('reads a name in code as a value that says the thing is code, and "where in" a place as asking to search it', () => {
    expect(terms('where in acme/api do we call parseConfig')).toEqual(['call', 'search', 'code']);
    expect(terms('who calls render() in the web app')).toContain('code');
    expect(terms('is there an iPhone app')).not.toContain('code');
    expect(terms('where are we on PROJ-777?')).not.toContain('search');
  });

  it('reads a sending noun that starts the command as sending, not reading', () => {
    expect(parseQuery('email invoice in_1PWedding to the bride').action).toBe('create');
    expect(terms('email invoice in_1PWedding to the bride')).toContain('send');
    expect(parseQuery('email addresses of the team').action).not.toBe('create');
  });

  it('reads what is sold as a product, what happened as events, money sent to one\'s bank as a payout, and the dates of a weekly thing as a recurring one\'s instances', () => {
    expect(terms("Add a '10-Class Pass' to what we sell")).toContain('product');
    expect(terms('what merch do we have set up for sale?')).toContain('product');
    expect(terms('sell me on this idea')).not.toContain('product');
    expect(terms('show me everything that happened on the account yesterday')).toContain('event');
    expect(terms('what happens if I delete the repo?')).not.toContain('event');
    expect(terms("what's been deposited to our bank this month?")).toContain('payout');
    expect(terms('which transfers went to our checking account in May?')).toContain('payout');
    expect(terms('the bank transfers Stripe sent us on Friday')).toContain('payout');
    expect(terms('add a bank account to our customer')).not.toContain('payout');
    expect(terms('show every date the weekly troop meeting happens until June')).toEqual(expect.arrayContaining(['recurring', 'instance']));
    expect(terms('show every date on my calendar next week')).not.toContain('instance');
  });

  it('reads things found by what they are about or mention as a search', () => {
    expect(terms('look for public repos about photosynthesis simulations')).toContain('search');
    expect(terms("dig up any messages mentioning 'tractor repair'")).toContain('search');
    expect(terms('write release notes about the new map')).not.toContain('search');
    expect(terms('tell me about the repo')).not.toContain('search');
  });

  it('reads a word made with a hyphenated prefix as a word, joined as well ("re-run": rerun, run), not as a name', () => {
    const t = parseQuery('re-run the workflow').terms;
    expect(t.map((x) => x.word)).toEqual(['rerun', 'run', 'workflow']);
    expect(t.every((x) => x.weight === 1)).toBe(true);
    expect(parseQuery('list the self-hosted runners').terms.find((x) => x.word === 'hosted')?.weight).toBe(1);
    expect(parseQuery('delete the old-prototype repo').terms.find((x) => x.word === 'prototype')?.weight).toBeLessThan(1);
    // Only where it is hyphenated: a word of the name written alone elsewhere is a word.
    const bug = parseQuery('find every open bug labelled event-bug in the LIVE project').terms.filter((x) => x.word === 'bug');
    expect(bug.map((x) => x.weight)).toEqual([1]);
  });

  it('reads the word after "called", "named" or a word for a person as a name that counts little', () => {
    const weight = (q: string, w: string) => parseQuery(q).terms.find((t) => t.word === w)?.weight;
    expect(weight('list the repositories of user octocat', 'octocat')).toBeLessThan(1);
    expect(weight('get rid of the team called interns', 'interns')).toBeLessThan(1);
    expect(weight('list the repositories of octocat', 'octocat')).toBe(1);
  });

  it('reads "could you", "can I" as a polite request whose verb says what to do, and "give me" as a read', () => {
    expect(parseQuery('could you trigger the release workflow on main').action).toBe('create');
    expect(parseQuery('can I delete the old branch?').action).toBe('delete');
    expect(parseQuery('could you give me the raw text of gist 55').action).toBe('get');
  });

  it('reads the "me" of "tell me", "help me" as the one asking, not the signed-in user', () => {
    expect(parseQuery('tell me about the acme/web repository').self).toBe(false);
    expect(parseQuery('help me create a webhook').self).toBe(false);
    expect(parseQuery('show the issues assigned to me').self).toBe(true);
  });

  it('reads "find" as asking to search, an implied word', () => {
    expect(parseQuery('find users named alice').terms.find((t) => t.word === 'search')).toMatchObject({ optional: true });
    expect(parseQuery('list users').terms.some((t) => t.word === 'search')).toBe(false);
  });

  it('reads "stop following" as the verb undone (unfollow), an implied word', () => {
    expect(parseQuery('stop following octocat').terms.find((t) => t.word === 'unfollow')).toMatchObject({ optional: true, weight: 1 });
    expect(parseQuery('quit starring the repo').terms.some((t) => t.word === 'unstar')).toBe(true);
    expect(parseQuery('stop the running build').terms.some((t) => t.word.startsWith('un'))).toBe(false);
  });

  it('reads the speaker taken out of a place ("remove me from #random") as leaving it, and someone else taken out as no such thing', () => {
    expect(parseQuery('remove me from #random').terms.find((t) => t.word === 'leave')).toMatchObject({ optional: true, actVerb: true, at: -1 });
    expect(parseQuery('get me out of #client-acme').terms.some((t) => t.word === 'leave')).toBe(true);
    expect(parseQuery('remove Sam from #random').terms.some((t) => t.word === 'leave')).toBe(false);
    expect(parseQuery('send me the invoice').terms.some((t) => t.word === 'leave')).toBe(false);
  });

  it('reads "is there a way to …", "how to …" as a lead-in whose verb says what to do', () => {
    expect(parseQuery('is there a way to list every gist I starred').action).toBe('list');
    expect(parseQuery('is it possible to delete a branch?').action).toBe('delete');
    expect(parseQuery('how to create a webhook').action).toBe('create');
  });

  it('reads what the one addressed can or should do as a request ("you can delete …", "you should cancel …", "go ahead and …")', () => {
    expect(parseQuery('you can delete the old-login branch now').action).toBe('delete');
    expect(parseQuery('you should cancel the nightly run').action).toBe('cancel');
    expect(parseQuery('you could close issue 4 for me').action).toBe('update');
    expect(terms('you can go ahead and archive acme/legacy')).toEqual(['archive']);
    expect(parseQuery('can you delete the gist?').action).toBe('delete');
    expect(parseQuery('do me a favor and close issue 4').action).toBe('update');
    expect(parseQuery('do me a favor and close issue 4').self).toBe(false);
    expect(parseQuery('I was hoping to delete the gist').action).toBe('delete');
    expect(parseQuery('any chance you could delete the gist').action).toBe('delete');
  });

  it('reads a question after which endpoint does a thing as a lead-in, whose words ask for nothing', () => {
    expect(parseQuery('which endpoint lets me delete a gist').action).toBe('delete');
    expect(parseQuery('which endpoint lets me delete a gist').self).toBe(false);
    expect(terms('is there an API to create a webhook on a repository')).toEqual(['create', 'webhook', 'repository']);
    expect(terms("I'd love to fork acme/api")).toEqual(['fork']);
    expect(parseQuery('gotta cancel run 77').action).toBe('cancel');
  });

  it('asks for no word of a lead-in phrase ("possible", "way")', () => {
    expect(terms('is it possible to delete a branch?')).toEqual(['delete', 'branch']);
    expect(terms('is there any way to list webhooks')).not.toContain('way');
    expect(terms('which possible fix applies')).toContain('possible');
  });

  it('reads a phrasal verb around an object with values in it ("take the deploy key \'old-ci\' (id 9921) off")', () => {
    expect(parseQuery("take the deploy key 'old-ci' (id 9921) off the api repo").action).toBe('delete');
    expect(terms("take the deploy key 'old-ci' (id 9921) off the api repo")).not.toContain('off');
    expect(parseQuery('take the deploy key and the old ssh key off the repo').action).not.toBe('delete');
  });

  it('reads "get a list of", "give me a list of" as a list', () => {
    expect(parseQuery("can I get a list of the org's projects").action).toBe('list');
    expect(parseQuery('give me a list of open issues').action).toBe('list');
    expect(parseQuery('get the project').action).toBe('get');
  });

  it('reads the word after "called", "named" as a name, even a verb, and "called" as no word to match', () => {
    const t = parseQuery('create a channel called launch').terms;
    expect(t.some((x) => x.word === 'called')).toBe(false);
    expect(t.find((x) => x.word === 'launch')).toMatchObject({ name: true });
    expect(parseQuery('create a channel called launch').action).toBe('create');
  });

  it('reads "who" as the subject of the verb after it, not its object', () => {
    expect(parseQuery('who follows me').who).toBe(true);
    expect(parseQuery('who is assigned to issue 9').who).toBe(true);
    expect(parseQuery('who am I following').who).toBeFalsy();
    expect(parseQuery('who are all the people that starred our repo').who).toBe(true);
    expect(parseQuery('list everyone who has forked acme/api').who).toBe(true);
    expect(parseQuery('list the people in the team').who).toBeFalsy();
    // "How many people <verb>" counts who does it.
    expect(parseQuery('how many people follow torvalds').who).toBe(true);
    expect(parseQuery('how many repos does acme have').who).toBeFalsy();
    // People counted as what something has, not by what they do.
    expect(parseQuery('how many users does acme have').who).toBeFalsy();
  });

  it('drops prepositions that only place things ("under", "within", "across")', () => {
    expect(terms('repositories under my account across the org')).toEqual(['repositories', 'account', 'org']);
  });

  it('gives action words less weight than what they act on', () => {
    const t = parseQuery('delete webhook').terms;
    expect(t.find((x) => x.word === 'delete')!.weight).toBeLessThan(t.find((x) => x.word === 'webhook')!.weight);
  });

  it('reads a noun that shares its stem with an action verb as a noun, at full weight ("invitations", "settings", "general")', () => {
    const weight = (q: string, word: string) => parseQuery(q).terms.find((t) => t.word === word)!.weight;
    expect(weight('list the invitations to collaborate on acme/api', 'invitations')).toBe(1);
    expect(weight('show the settings of the repo', 'settings')).toBe(1);
    expect(weight('post in the general channel', 'general')).toBe(1);
    // The verb itself, in any form, is still an action word that counts less.
    expect(weight('who invited bob to the repo', 'invited')).toBeLessThan(1);
  });

  it('reads a name after "called" to the end of its clause or the next preposition, and as naming nobody', () => {
    const parsed = parseQuery('a brand new calendar called Side projects');
    expect(parsed.terms.find((t) => t.word === 'projects')!.name).toBe(true);
    expect(parsed.terms.some((t) => t.word === 'user')).toBe(false);
    const scoped = parseQuery('a label called needs triage in acme/api');
    expect(scoped.terms.find((t) => t.word === 'triage')!.name).toBe(true);
    expect(scoped.terms.find((t) => t.word === 'label')!.name).toBe(false);
    // A capitalised name elsewhere still speaks of a person.
    expect(parseQuery('remove Dana from the calendar called Team').terms.some((t) => t.word === 'user')).toBe(true);
  });

  it('reads "file" and "log" starting a command before their object as verbs that create, elsewhere as nouns', () => {
    expect(parseQuery('file an issue in project 42').action).toBe('create');
    expect(parseQuery('log 2 hours of work on ABC-12').action).toBe('create');
    expect(parseQuery('please file a bug report').action).toBe('create');
    expect(parseQuery('file contents of README.md').action).not.toBe('create');
    expect(parseQuery('delete the file config.yml').terms.find((t) => t.word === 'file')!.weight).toBe(1);
  });

  it('reads a read as many or one by the head of what it reads: a plural lists, a singular with a number gets', () => {
    expect(parseQuery('show dependabot alerts for acme/api').action).toBe('list');
    expect(parseQuery('get the repos of octocat').action).toBe('list');
    expect(parseQuery('show me the pull request 77').action).toBe('get');
    expect(parseQuery('show me the branch protection').action).toBe('list');
    expect(parseQuery('delete the alerts').action).toBe('delete');
  });

  it('reads a bare singular subject of a question or clause as a name ("which gists does octocat have", "repos octocat has starred")', () => {
    const named = (q: string, word: string) => parseQuery(q).terms.find((t) => t.word === word)!.name;
    expect(named('which gists does octocat have', 'octocat')).toBe(true);
    expect(named('what organizations is octocat a member of', 'octocat')).toBe(true);
    expect(named('show me the repos octocat has starred', 'octocat')).toBe(true);
    // Not the thing asked about, a verb, or a word after a determiner.
    expect(named('who has access to acme/api', 'access')).toBe(false);
    expect(named('does the repo have a license', 'repo')).toBe(false);
    expect(named('what artifacts did run 99 produce', 'run')).toBe(false);
    // A word before a noun and its number qualifies the noun ("workflow run 9001").
    expect(named('why did workflow run 9001 fail', 'workflow')).toBe(false);
  });

  it('reads a phrasal verb split around an object of up to four words ("hand the quarterly budget review over")', () => {
    expect(parseQuery('hand the quarterly budget review over to sam').action).toBe('update');
    expect(parseQuery('turn the cleanup job back on').action).toBe('update');
  });

  it('reads "who am I" as asking who the signed-in user is (a user), not after people in general; "who am I following" still asks after people', () => {
    const implied = (q: string) => parseQuery(q).terms.filter((t) => t.optional).flatMap(wordsOf);
    expect(implied('who am I on this server')).toEqual(['user']);
    expect(implied('who am I, by name?')).toEqual(['user']);
    expect(implied('who am I muting')).toContain('member');
  });

  it('reads a thing handed to a person as assigned to them: "give OPS-3 to sam" implies assign and assignee, "give the team access to acme/api" does not', () => {
    const implied = (q: string) => parseQuery(q).terms.filter((t) => t.optional).map((t) => t.word);
    expect(implied('give OPS-3 to sam')).toEqual(expect.arrayContaining(['assign', 'assignee']));
    expect(implied('pass the budget review over to lee')).toEqual(expect.arrayContaining(['assign', 'assignee']));
    expect(implied('give the team access to acme/api')).not.toContain('assign');
    expect(implied('give the release notes to the team')).not.toContain('assign');
    // The person ends the verb's clause, by name or by role and name.
    expect(implied("Give OPS-88 to Kenji, he's covering the overnight queue.")).toContain('assign');
    expect(implied("give WED-57 (the Patels' album design) to my editor Sam")).toContain('assign');
    expect(implied('give the report to the board, they asked')).not.toContain('assign');
  });

  it('reads a name of several capitalised words after "our" or "the" as a thing, not a person; a value put in a place leaves the place as where it goes', () => {
    const q = parseQuery("Add 'Order new robes' to our Spring Concert project");
    expect(q.terms.flatMap(wordsOf)).not.toContain('person');
    expect(q.unnamed).toBe(true);
    expect(q.terms.find((t) => t.word === 'project')?.scope).toBe(true);
    expect(terms('Give Kenji access to the repo')).toContain('person');
    expect(parseQuery('add a task to the Spring Concert project').unnamed).toBeUndefined();
  });

  it('implies the words catalogues write for how much is used (usage), for what one has and another lacks (compare), for moving on in time (advance) and for a changelog (release notes)', () => {
    expect(terms('how much cache storage is the ci-images repo eating?')).toContain('usage');
    expect(terms('how much cache storage is allowed for the repo?')).not.toContain('usage');
    expect(terms("which commits are on release/17.x that aren't on main?")).toContain('compare');
    expect(terms('which commits are on main?')).not.toContain('compare');
    const clock = parseQuery('push the test clock forward a month');
    expect(clock.action).toBe('update');
    expect(clock.terms.map((t) => t.word)).toContain('advance');
    expect(terms('draft the changelog for v2.4.0')).toEqual(expect.arrayContaining(['release', 'notes']));
  });

  it('reads "any more" and "any longer" as no longer: neither word is a term', () => {
    expect(terms("He shouldn't be part of our GitHub org any more.")).not.toContain('more');
    expect(terms("she shouldn't see the calendar any longer")).not.toContain('longer');
    expect(terms('add two more labels')).toContain('more');
  });

  it('reads what happens each time as context: its verbs ask nothing, and being told of it implies a hook or a watch', () => {
    const q = parseQuery('Notify our endpoint whenever anything changes in project 1204417');
    expect(q.terms.map((t) => t.word)).toEqual(expect.arrayContaining(['webhook', 'hook', 'watch']));
    expect(q.terms.map((t) => t.word)).not.toContain('changes');
    expect(parseQuery('ping my server every time someone pushes to the repo').terms.map((t) => t.word)).toContain('webhook');
    // The "every" that opens it asks for no list: a hook is made.
    expect(parseQuery('notify https://ops.example.com/gh every time someone pushes').action).toBe('create');
    // "Every time entry" is a noun phrase, no clause.
    expect(terms('Pull every time entry on SUP-88')).not.toContain('webhook');
  });

  it('reads "how many …" as a read, a list or a count alike, implying the word count', () => {
    const q = parseQuery('how many stars does acme/api have?');
    expect(q.action).toBeUndefined();
    expect(q.reads).toBe(true);
    expect(q.terms.find((t) => t.word === 'count')).toMatchObject({ optional: true, weight: 0.5 });
    // Not when the words only follow another verb.
    expect(parseQuery('list how many stars acme/api has').terms.some((t) => t.word === 'count')).toBe(false);
  });

  it('reads "have" before a verb, or before a thing and its verb, as asking for that verb ("have the repo send …"), and "have you …" as a question', () => {
    expect(parseQuery('have the billing repo send push events to our url').action).toBe('create');
    expect(parseQuery('have post to our url whenever anyone pushes').terms.map((t) => t.word)).toContain('webhook');
    expect(parseQuery('have you merged PR 5').action).not.toBe('create');
    expect(parseQuery('have the invoices been paid').action).toBe('list');
    // A verb no lexicon knows, before a thing or a person, after the service's name or a value ("have Asana ping our server", its name read apart).
    expect(parseQuery('have ping our server whenever project 7788 changes').command).toBe('ping');
    expect(parseQuery('have acme/engine ping our build server whenever someone pushes').terms.map((t) => t.word)).toContain('webhook');
    expect(parseQuery('have all the tests passed?').command).toBeUndefined();
    // Before a value ("have hit https://… whenever …", the service's name read apart).
    expect(parseQuery('have hit https://api.example.com/hooks whenever invoice.payment_failed happens').command).toBe('hit');
  });

  it('reads what follows the colon of a command said by a phrase ("open a ticket in OPS: …") as what the thing holds, but not a command after a label ("Clean up the repo: remove …")', () => {
    const parsed = parseQuery('open a ticket in OPS: the printer on floor 2 is jammed');
    expect(parsed.terms.find((t) => t.word === 'printer')!.weight).toBeLessThan(1);
    expect(parsed.terms.find((t) => t.word === 'ticket')!.weight).toBe(1);
    expect(parseQuery('Clean up the monorepo: remove every merged branch').terms.find((t) => t.word === 'branch')!.weight).toBe(1);
  });

  it('reads a thing wished for by its kind ("I need a shareable link for …") as one to make, and "a list of …" or "a link to that message" as a reading', () => {
    expect(parseQuery('I need a shareable link customers can pay through for the summer price').action).toBe('create');
    expect(parseQuery("we'd like a Priority dropdown field for projects").action).toBe('create');
    expect(parseQuery('I need a list of open issues').action).toBe('list');
    expect(parseQuery('I need a link to that message').action).not.toBe('create');
    expect(parseQuery('I need a .zip of my repo as it was at v1.0').action).not.toBe('create');
    // Whatever verbs describe the thing linked to ("signing off"); not a new public link.
    expect(parseQuery("I need a link to Priya's message signing off on build 4121").action).toBe('get');
    expect(parseQuery('I need a public link to the vendor map file').action).not.toBe('get');
  });

  it('reads a sending noun heading a command before its object, with or without a determiner, as sending it ("email the invoice to …")', () => {
    expect(terms('email the finalized invoice to the client')).toContain('send');
    expect(terms('email invoice in_789 to the customer')).toContain('send');
    expect(terms('what email address does Sam use')).not.toContain('send');
  });

  it('reads a handle ("@sam") and someone given access ("give ana-k push access") as a person', () => {
    expect(terms('start a DM with @sam')).toContain('user');
    expect(terms('give ana-k push access to brewco/recipes')).toContain('collaborator');
    expect(terms('nobody should @mention the design group')).not.toContain('collaborator');
    expect(terms('give the repo more access checks')).not.toContain('collaborator');
  });

  it('reads people who looked at a thing as its views', () => {
    expect(terms('how many people looked at my blog repo this month')).toContain('view');
    expect(terms('look at the open pull requests')).not.toContain('view');
  });

  it('reads "get me a …" / "give me a …" of a thing with no name yet as making one, and of a thing that exists as reading it', () => {
    expect(parseQuery('get me a token so I can register a runner').action).toBe('create');
    expect(parseQuery('give me a link I can share in the newsletter').action).toBe('create');
    expect(parseQuery('get me a link to message 1712345678.0002 in #releases').action).not.toBe('create');
    expect(parseQuery('give me a list of open issues').action).toBe('list');
  });

  it('reads "get X off/out of Y" as taking it away, and "end" heading a command as cancelling', () => {
    expect(parseQuery('get that key off my account').action).toBe('delete');
    expect(parseQuery('get the old calendar out of my sidebar').action).toBe('delete');
    expect(parseQuery('end their monthly subscription right away').action).toBe('cancel');
    expect(parseQuery('set the end date to Friday').action).toBe('update');
  });

  it('reads a count before what it counts as how many, not a value ("make 12 tickets" makes them), a span of time staying one, and "per", "through", "once" as no words to match', () => {
    expect(parseQuery('make 12 tickets in CAMP').action).toBe('create');
    expect(parseQuery('log 3 hours on PROJ-7').action).toBe('create');
    expect(terms('make 12 tickets at once, one per cabin, 1 through 12')).not.toEqual(expect.arrayContaining(['per']));
    expect(terms('one per cabin, 1 through 12, at once')).not.toContain('through');
    expect(terms('create them all at once')).not.toContain('once');
  });

  it('reads a thing stuck at the top of a place as pinned there', () => {
    expect(terms('stick the rota message at the top of #crew')).toContain('pin');
  });

  it('reads signing someone up for a plan as subscribing them', () => {
    expect(terms('sign cus_123 up for the yearly plan')).toContain('subscription');
    expect(parseQuery('sign cus_123 up for the yearly plan').action).toBe('create');
  });

  it('reads events or notifications sent to an address as a webhook', () => {
    expect(terms('POST every push event to https://hooks.example.com/gh')).toContain('webhook');
    expect(terms('which URLs are we sending our events to?')).toContain('webhook');
    expect(terms('list the events on issue 5')).not.toContain('webhook');
  });

  it('keeps the capitalised words that alone say a person is meant, for the ranking to weigh against the catalogue\'s own names', () => {
    expect(parseQuery('Store STRIPE_KEY as an encrypted Actions secret on clientco/shop').personNames).toEqual(['actions']);
    expect(parseQuery('add Dana to the repo').personNames).toEqual(['dana']);
    // A sentence's first word is capitalised anyway: a word of the language there is no name, after a value too.
    expect(parseQuery('Void invoice in_1PQ7, $4,200. Billed in error.').personNames).toBeUndefined();
    expect(parseQuery('Thanks. Dana needs access to the repo').personNames).toEqual(['dana']);
    // Days and months are written capitalised too, and are no one.
    expect(parseQuery('move the design review to Thursday').personNames).toBeUndefined();
    expect(parseQuery('Cancel the alto sectional on March 12.').personNames).toBeUndefined();
    expect(parseQuery('move the design review to Thursday').terms.some((t) => t.word === 'user')).toBe(false);
    // Said otherwise too: a who-question, a pronoun, an email address.
    expect(parseQuery('who gave Dana access?').personNames).toBeUndefined();
    expect(parseQuery('invite dana@example.com to the Ops team').personNames).toBeUndefined();
  });

  it("implies the catalogue's words for people as one term, any of which answers, so an operation writing several counts no more", () => {
    const people = parseQuery('add Dana to the repo').terms.filter((t) => t.at < 0 && t.alternatives);
    expect(people).toHaveLength(1);
    expect([people[0]!.word, ...people[0]!.alternatives!]).toEqual(expect.arrayContaining(['user', 'member', 'person']));
  });

  it('reads "what\'s on" a place only where a clause asks it, and then as naming no resource', () => {
    expect(parseQuery("what's on my calendar tomorrow").unnamed).toBe(true);
    expect(parseQuery('who did what in our workspace last week').unnamed).toBeUndefined();
  });
});
