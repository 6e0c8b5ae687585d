import { withQuery } from "@persona/platform/http";
import type { Step } from "@/taxes/lib/fields";
import { BadRequest, field, formPost, need } from "@/taxes/lib/http";
import { checkTogether, currentReturn, nextStep, parseStep, saveStep, startReturn, valuesOf } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

/** The steps that have fields to save (review and file have none). */
const EDITABLE: Step[] = ["personal", "income", "deductions"];
const MOVES = ["back", "next", "exit", "stay"];

const stepOf = (form: FormData): Step => {
  const s = field(form, "step") ?? need("step");
  if (!EDITABLE.includes(s as Step)) throw new BadRequest("step must be personal, income or deductions.", 400, "step");
  return s as Step;
};

/** Save one step of the draft (fields `step` = personal | income | deductions, `go` = back | next | exit | stay, and
 * the step's fields; a field left out keeps its stored value). Every field is validated before anything is written;
 * a refused field (303 back with `error`) or a malformed request (4xx) leaves the draft as it was. */
export const POST = formPost(
  (ctx, user, form) => {
    const step = stepOf(form);
    const go = field(form, "go") ?? need("go");
    if (!MOVES.includes(go)) throw new BadRequest("go must be back, next, exit or stay.", 400, "go");
    const values = parseStep(ctx, step, form);
    // Rules between fields are checked before a draft is started: a refused save writes nothing.
    const have = currentReturn(ctx, user);
    checkTogether(ctx, have ? valuesOf(have.id) : {}, values);
    const ret = startReturn(ctx, user);
    const next = nextStep(step, go);
    saveStep(ctx, ret, values, next);
    return go === "exit" ? withQuery("/", { saved: "1" }) : withQuery(`/return/${next}`, { saved: "1" });
  },
  (form) => {
    const s = field(form, "step") as Step | null;
    return `/return/${s && EDITABLE.includes(s) ? s : "personal"}`;
  },
);
