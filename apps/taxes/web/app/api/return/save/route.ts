import { field, withQuery } from "@persona/platform/http";
import { STEPS, type Step } from "@/taxes/lib/fields";
import { formPost } from "@/taxes/lib/http";
import { nextStep, parseStep, saveStep, startReturn } from "@/taxes/lib/store";

export const dynamic = "force-dynamic";

const stepOf = (form: FormData): Step => {
  const s = field(form, "step") as Step;
  return STEPS.includes(s) ? s : "personal";
};

/** Save one step of the draft (fields `step`, `go` = back | next | exit | stay, and the step's fields). Every field
 * is validated before anything is written; a refused field leaves the draft as it was. */
export const POST = formPost(
  (ctx, user, form) => {
    const step = stepOf(form);
    const go = field(form, "go");
    const values = parseStep(ctx, step, form);
    const ret = startReturn(ctx, user);
    const next = nextStep(step, go);
    saveStep(ctx, ret, values, next);
    return go === "exit" ? withQuery("/", { saved: "1" }) : withQuery(`/return/${next}`, { saved: "1" });
  },
  (form) => `/return/${stepOf(form)}`,
);
