/** Who a session runs as. Later issues fill roles from Ranger's role store. */
export interface Identity {
  user: string;
  roles: readonly string[];
}
