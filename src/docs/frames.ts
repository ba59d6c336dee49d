// A request inside a frame, read as the request: the frame says who asks, when and why, and is
// not matched against operations (src/docs/request-forms.ts reads what is left).
//   - speech: fillers ("uh", "um"), a word said twice and a name addressed ("Hey Priya, …") say
//     nothing, and what follows a correction ("no wait", "I mean") replaces what came before;
//   - a question asked inside another ("any idea who is assigned …") is the question asked;
//   - a planning document: a user story's role ("As a maintainer, I want …"), a scenario's
//     conditions ("Given …, when …, then …"), a label ("Acceptance criteria:"); what its criteria
//     or outcome say holds ("the channel is archived") is the state asked for;
//   - a condition or a setting that names no value before the request ("When a new hire joins, …",
//     "For the key rotation review, …"), and the reason after it ("… so nobody can delete it").
import { PARTICIPLE } from './participles.ts';

/** Sounds that fill a pause in speech, with the commas around them. */
const FILLERS = /(?:,\s*)?\b(?:u+h+|u+m+|h+m+|e+r+m*|a+h+)\b(?:\s*,)?\s*/gi;
/** A word said twice as speech stumbles: "the, the launch checklist". */
const STUTTER = /\b([a-z]+)(?:\s*,\s*|\s+)\1\b/gi;
/** Someone addressed by name before the request: "Hey Priya, could you …". */
const VOCATIVE = /^\s*(?:[Hh]ey|[Hh]i|[Hh]ello|[Oo]k|[Oo]kay)\s+[A-Z][a-z]+\s*,\s*/;
/** A spoken correction: what comes before it in its sentence is taken back. */
const CORRECTION = /(?:^|(?<=[.!?]\s))[^.!?]*?(?:[,.…]+\s*|\s+)(?:no\s+wait|scratch\s+that|or\s+rather|i\s+mean)\b[,.…]*\s*/gi;
/** A user story's role before the one who wants: "As a release manager, I want …". */
const STORY_ROLE = /(?:^|(?<=[.!?]\s))as\s+(?:an?|the|our)\s+(?:[\w'-]+\s+){0,4}?[\w'-]+,?\s+(?=(?:i|we)\b)/gi;
/** A scenario's conditions: "Given …, when …, then <request>"; without "then", the first clause after "given". */
const SCENARIO_THEN = /^\s*(?:given|when)\b.*?[,\s]\s*then\s+/i;
const SCENARIO_GIVEN = /^\s*given\b[^,]*,\s*/i;
/** A condition before the request: "When a new hire joins, …", "once it's merged, …"; not in a question. */
const CONDITION = /^\s*(?:when|whenever|once|if|after|as\s+soon\s+as)\b[^,?]*,\s*(?=[^?]*$)/i;
/** A label that names the part of a planning document the request is ("Acceptance criteria:", "User story:"). */
const DOCUMENT_LABEL = /^\s*(?:acceptance(?:\s+criteria)?|requirements?|(?:user\s+)?story|goal|task|to-?do|request|ask|context|note|update|ac)\s*:\s*/i;

/** A setting before the request that names no value: "For the key rotation review, …", "On the order summary step, …". */
const SETTING = /^\s*(?:for|during|regarding|re|before|after|since|on|in|under|from|as\s+part\s+of|ahead\s+of)\b[^,?0-9'"“‘/#@]*,\s*(?=(?:\S+\s+){2,}\S)/i;
/** A question asked inside another ("any idea who is assigned …", "do you know which repos …", "not sure if the gist still exists"): the question is asked; not "… if you could delete it", a request. */
const EMBEDDED_QUESTION = /^\s*(?:[\w',]+\s+){0,5}?(?:know|knows|wonder|wondering|wondered|idea|curious|sure|find\s+out|figure\s+out|tell\s+me|check|see)\s+(?=(?:who|whom|whose|what|which|when|where|how|whether|if)\b)(?!(?:if|whether)\s+(?:you|we|i|someone)\s+(?:can|could|would|will|might)\b)/i;
/** An embedded yes-or-no question, asked as one: "whether issue 5 is closed" → "does issue 5 is closed" reads and wants yes or no. */
const EMBEDDED_YES_NO = /^(?:whether|if)\s+/i;
/** A clause that says why, after the request: "…, so the review doesn't stall", "because it's gotten heated". */
const PURPOSE = /(?<=\S\s+\S+\s+\S+)\s*,?\s+(?:so\s+that|so|because|in\s+order\s+that)\s+(?=(?:i|we|it|they|he|she|you|the|nobody|no\s+one|everyone|anyone|only|people|our|my|their|its|his|her|this|that|these|those)\b)[^.;!?]*/gi;

/** A state said to hold: "is archived", "are now published". */
const STATED = new RegExp(`\\b(?:is|are|gets|get)\\s+(?:now\\s+)?${PARTICIPLE}\\b`, 'gi');

/** The request without the frame of speech or of a planning document around it, nor the reason it gives. */
export function withoutFrame(query: string): string {
  const said = query.replace(FILLERS, (filler) => (filler.startsWith(',') ? ' ' : '')).replace(STUTTER, '$1').replace(CORRECTION, '').replace(VOCATIVE, '');
  const asked = said.replace(EMBEDDED_QUESTION, '');
  const spoken = asked === said ? said : asked.replace(EMBEDDED_YES_NO, 'does ');
  const unlabelled = spoken.replace(DOCUMENT_LABEL, '');
  const outcome = unlabelled.replace(STORY_ROLE, '').replace(SCENARIO_THEN, '');
  // What acceptance criteria or a scenario's outcome state ("the channel is archived") is the state asked for.
  const stated = unlabelled !== spoken || /^\s*(?:given|when)\b/i.test(unlabelled) ? outcome.replace(STATED, 'should be $1') : outcome;
  return stated.replace(SCENARIO_GIVEN, '').replace(CONDITION, '').replace(SETTING, '').replace(PURPOSE, '');
}
