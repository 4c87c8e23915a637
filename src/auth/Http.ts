/**
 * The REST door's authentication: the bearer token resolved to an actor (src/auth/Actors.ts) under the
 * access rule the endpoint declares beside its definition. Ownership is the use cases' job (404).
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Effect, Layer } from "effect"
import { RouteTable } from "../http/RouteTable.js"
import { Actors } from "./Actors.js"
import { Authentication } from "./Authentication.js"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Effect.all([Actors, RouteTable]), ([actors, routeTable]) => ({
    bearer: (token) =>
      Effect.flatMap(HttpRouter.RouteContext, ({ route }) => actors.resolve(token, routeTable.accessRuleFor(route.method, route.path)))
  }))
)
