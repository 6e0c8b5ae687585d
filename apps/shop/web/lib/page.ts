import { requireUser, type User } from "./auth";
import { shopContext, type ShopContext } from "./context";
import { cartCount, departments, type Department } from "./shop";

export interface Shell {
  user: User;
  ctx: ShopContext;
  cart: number;
  depts: Department[];
}

/** What every signed-in page needs: the user (else a redirect to /login), the context, the cart count, departments. */
export async function shell(): Promise<Shell> {
  const user = await requireUser();
  return { user, ctx: shopContext(), cart: cartCount(user.id), depts: departments() };
}
