/** Who a verified login token says the user is: what signing in (Users) reads, and what auth/LoginTokens gives. */
export interface LoginClaims {
  readonly sub: string
  readonly email: string | null
  readonly emailVerified: boolean
  readonly name: string | null
  readonly picture: string | null
  readonly signInProvider: string
  readonly authTime: Date | null
}
