/**
 * Every environment variable of the service, read once and validated at start.
 * A wrong value fails the layer with a ConfigError naming the variable; main.ts turns it into one line.
 */
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import * as Path from "node:path"

export type Role = "all" | "api" | "worker"
export type CreditMode = "dynamic" | "flat" | "free"

// Validate before the default: a validated default keeps the variable's name out of the error.
const positiveInt = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

const nonNegativeInt = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "must be an integer >= 0", validation: (n) => n >= 0 }),
    Config.withDefault(fallback)
  )

const optionalNonNegativeInt = (name: string) =>
  Config.option(
    Config.integer(name).pipe(Config.validate({ message: "must be an integer >= 0", validation: (n) => n >= 0 }))
  )

const csv = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.map((s) => s.split(",").map((p) => p.trim()).filter((p) => p.length > 0))
  )

const url = (name: string) =>
  Config.string(name).pipe(
    Config.validate({
      message: "must be an absolute http(s) URL",
      validation: (s) => {
        try {
          const u = new URL(s)
          return u.protocol === "http:" || u.protocol === "https:"
        } catch {
          return false
        }
      }
    })
  )

/** The database: where it is, its pool and its timeouts. */
const databaseConfig = (dataDir: string) =>
  Effect.gen(function*() {
    return {
      url: yield* Config.option(Config.redacted("DATABASE_URL")),
      dataDir,
      embeddedPort: yield* Config.option(Config.port("SERVICE_EMBEDDED_PG_PORT")),
      poolSize: yield* positiveInt("SERVICE_DB_POOL_SIZE", 20),
      /** named prepared statements (src/db/PreparedStatements.ts); off behind a pooler that cannot keep them */
      preparedStatements: yield* Config.boolean("SERVICE_DB_PREPARED_STATEMENTS").pipe(Config.withDefault(true)),
      /** how long the start waits for an unreachable database (0: one attempt) */
      connectTimeoutS: yield* nonNegativeInt("SERVICE_DB_CONNECT_TIMEOUT_S", 60),
      /** how long a statement waits for a pooled connection before it fails (a request then answers 503) */
      acquireTimeoutMs: yield* positiveInt("SERVICE_DB_ACQUIRE_TIMEOUT_MS", 30_000)
    }
  })

/** How bearer tokens are verified: the JWKS (a URL, a file, or the development one), the issuer, audience and providers. */
const authConfig = (jwksUrl: Option.Option<string>, jwksFile: string) =>
  Effect.gen(function*() {
    return {
      jwksUrl,
      jwksFile: Option.isSome(jwksUrl) ? Option.none<string>() : Option.some(Path.resolve(jwksFile)),
      issuer: yield* Config.string("SERVICE_AUTH_ISSUER").pipe(Config.withDefault("rubr-dev")),
      audience: yield* Config.string("SERVICE_AUTH_AUDIENCE").pipe(Config.withDefault("rubr")),
      allowedProviders: yield* csv("SERVICE_AUTH_ALLOWED_PROVIDERS", "google.com,github.com"),
      /** the dotted path of the claim naming the sign-in provider; a token without it has the provider `oidc` */
      providerClaim: yield* Config.string("SERVICE_AUTH_PROVIDER_CLAIM").pipe(
        Config.validate({
          message: "must be a dotted claim path such as firebase.sign_in_provider",
          validation: (s) => /^[^.\s]+(\.[^.\s]+)*$/.test(s)
        }),
        Config.withDefault("firebase.sign_in_provider")
      ),
      /** true when neither SERVICE_AUTH_JWKS_URL nor SERVICE_AUTH_JWKS_FILE is set: the service's own development JWKS */
      usesDevJwks: Option.isNone(jwksUrl) && Option.isNone(yield* Config.option(Config.string("SERVICE_AUTH_JWKS_FILE")))
    }
  })

/** The dashboard's provider sign-in. */
const dashboardConfig = Effect.gen(function*() {
  return {
    /** the dashboard's OpenID Connect client id at SERVICE_AUTH_ISSUER; unset, the dashboard offers no provider sign-in */
    oidcClientId: yield* Config.option(Config.string("SERVICE_DASHBOARD_OIDC_CLIENT_ID").pipe(
      Config.validate({ message: "must not be empty", validation: (s) => s.trim().length > 0 })
    )),
    /** the scopes the dashboard asks the provider for */
    oidcScopes: yield* Config.string("SERVICE_DASHBOARD_OIDC_SCOPES").pipe(Config.withDefault("openid email profile"))
  }
})

/** What work costs, and what a new user gets. */
const creditsConfig = Effect.gen(function*() {
  return {
    signupCredits: yield* nonNegativeInt("SERVICE_SIGNUP_CREDITS", 100),
    auditMode: (yield* Config.literal("dynamic", "flat", "free")("SERVICE_AUDIT_CREDIT_MODE").pipe(
      Config.withDefault("dynamic")
    )) as CreditMode,
    auditRunCredits: yield* nonNegativeInt("SERVICE_AUDIT_RUN_CREDITS", 10),
    /** the flat-mode price of a rubr_flow conversion (SERVICE_AUDIT_CREDIT_MODE governs conversions too) */
    conversionRunCredits: yield* nonNegativeInt("SERVICE_CONVERSION_RUN_CREDITS", 5)
  }
})

/** Sizes, pages, rate limits and usage caps. */
const limitsConfig = Effect.gen(function*() {
  return {
    maxBodyBytes: yield* positiveInt("SERVICE_MAX_BODY_BYTES", 10 * 1024 * 1024),
    maxFileBytes: yield* positiveInt("SERVICE_MAX_FILE_BYTES", 1024 * 1024),
    maxFilesPerUpload: yield* positiveInt("SERVICE_MAX_FILES_PER_UPLOAD", 100),
    maxFilesPerBundle: yield* positiveInt("SERVICE_MAX_FILES_PER_BUNDLE", 500),
    pageLimitDefault: yield* positiveInt("SERVICE_PAGE_LIMIT_DEFAULT", 50),
    pageLimitMax: yield* positiveInt("SERVICE_PAGE_LIMIT_MAX", 200),
    rateLimitUserPerMinute: yield* positiveInt("SERVICE_RATE_LIMIT_USER_PER_MINUTE", 600),
    rateLimitKeyPerMinute: yield* positiveInt("SERVICE_RATE_LIMIT_KEY_PER_MINUTE", 600),
    rateLimitBundlePerMinute: yield* positiveInt("SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE", 300),
    rateLimitPublicIpPerMinute: yield* positiveInt("SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE", 60),
    trustProxy: yield* Config.boolean("SERVICE_TRUST_PROXY").pipe(Config.withDefault(false)),
    usageCapUserCreditsPerDay: yield* optionalNonNegativeInt("SERVICE_USAGE_CAP_USER_CREDITS_PER_DAY"),
    usageCapBundleCreditsPerDay: yield* optionalNonNegativeInt("SERVICE_USAGE_CAP_BUNDLE_CREDITS_PER_DAY")
  }
})

/** The AI provider (or the deterministic mock when disabled), its models and its safeguards. */
const aiConfig = Effect.gen(function*() {
  return {
    enabled: yield* Config.boolean("SERVICE_AI_ENABLED").pipe(Config.withDefault(false)),
    baseUrl: yield* url("SERVICE_AI_BASE_URL").pipe(Config.withDefault("https://api.openai.com/v1")),
    apiKey: yield* Config.redacted("SERVICE_AI_API_KEY").pipe(Config.withDefault(Redacted.make(""))),
    model: yield* Config.string("SERVICE_AI_MODEL").pipe(Config.withDefault("gpt-4o-mini")),
    /** Latency added to each mock review (demos; cancellation and crash-recovery tests). */
    mockDelayMs: yield* nonNegativeInt("SERVICE_MOCK_REVIEW_DELAY_MS", 0),
    /** Per-tier model overrides; a tier without one uses `model` (docs/ai-provider.md). */
    models: {
      cheap: yield* Config.option(Config.string("SERVICE_AI_MODEL_CHEAP")),
      standard: yield* Config.option(Config.string("SERVICE_AI_MODEL_STANDARD")),
      premium: yield* Config.option(Config.string("SERVICE_AI_MODEL_PREMIUM"))
    },
    timeoutMs: yield* positiveInt("SERVICE_AI_TIMEOUT_MS", 120_000),
    responseFormat: (yield* Config.literal("json_schema", "json_object", "none")("SERVICE_AI_RESPONSE_FORMAT").pipe(
      Config.withDefault("json_schema")
    )) as "json_schema" | "json_object" | "none",
    reasoningEffortParam: (yield* Config.literal("auto", "always", "never")("SERVICE_AI_REASONING_EFFORT_PARAM").pipe(
      Config.withDefault("auto")
    )) as "auto" | "always" | "never",
    /** the model tier conversions run on (and are estimated for) */
    conversionModelTier: (yield* Config.literal("cheap", "standard", "premium")("SERVICE_CONVERSION_MODEL_TIER").pipe(
      Config.withDefault("cheap")
    )) as "cheap" | "standard" | "premium",
    circuitBreakerOverride: yield* Config.option(Config.literal("open", "closed")("SERVICE_AI_CIRCUIT_BREAKER")),
    dailyBudgetCredits: yield* optionalNonNegativeInt("SERVICE_AI_DAILY_BUDGET_CREDITS")
  }
})

/** Outgoing mail. */
const emailConfig = Effect.gen(function*() {
  return {
    sendEnabled: yield* Config.boolean("SERVICE_EMAIL_SEND_ENABLED").pipe(Config.withDefault(false)),
    smtpHost: yield* Config.string("SERVICE_SMTP_HOST").pipe(Config.withDefault("127.0.0.1")),
    smtpPort: yield* Config.port("SERVICE_SMTP_PORT").pipe(Config.withDefault(587)),
    smtpSecure: yield* Config.boolean("SERVICE_SMTP_SECURE").pipe(Config.withDefault(false)),
    smtpUser: yield* Config.option(Config.string("SERVICE_SMTP_USER")),
    smtpPassword: yield* Config.option(Config.redacted("SERVICE_SMTP_PASSWORD")),
    from: yield* Config.string("SERVICE_EMAIL_FROM").pipe(Config.withDefault("rubr <no-reply@rubr.local>"))
  }
})

/** The job worker's concurrency and polling, and when a job's worker counts as lost. */
const workerConfig = Effect.gen(function*() {
  return {
    concurrency: yield* positiveInt("SERVICE_WORKER_CONCURRENCY", 4),
    pollIntervalMs: yield* positiveInt("SERVICE_WORKER_POLL_INTERVAL_MS", 2000),
    staleJobAfterMs: yield* positiveInt("SERVICE_JOB_STALE_AFTER_MS", 30000)
  }
})

/** Where signed documents are exported besides the database. */
const exportsConfig = (dataDir: string) =>
  Effect.gen(function*() {
    return {
      storage: (yield* Config.literal("filesystem", "s3", "none")("SERVICE_EXPORT_STORAGE").pipe(
        Config.withDefault("filesystem")
      )) as "filesystem" | "s3" | "none",
      /** the filesystem store's folder */
      dir: Path.join(dataDir, "exports"),
      s3: {
        endpoint: yield* Config.option(url("SERVICE_S3_ENDPOINT")),
        region: yield* Config.string("SERVICE_S3_REGION").pipe(Config.withDefault("us-east-1")),
        bucket: yield* Config.string("SERVICE_S3_BUCKET").pipe(Config.withDefault("rubr-exports")),
        accessKeyId: yield* Config.option(Config.string("SERVICE_S3_ACCESS_KEY_ID")),
        secretAccessKey: yield* Config.option(Config.redacted("SERVICE_S3_SECRET_ACCESS_KEY")),
        forcePathStyle: yield* Config.boolean("SERVICE_S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false))
      }
    }
  })

/** The whole configuration, section by section, read in this order: the first wrong variable is the one reported. */
export const appConfig = Effect.gen(function*() {
  const dataDir = Path.resolve(yield* Config.string("SERVICE_DATA_DIR").pipe(Config.withDefault("./.data")))
  const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  const port = yield* Config.port("PORT").pipe(Config.withDefault(3000))
  const jwksUrl = yield* Config.option(url("SERVICE_AUTH_JWKS_URL"))
  const jwksFile = yield* Config.string("SERVICE_AUTH_JWKS_FILE").pipe(
    Config.withDefault(Path.join(dataDir, "dev-jwks.json"))
  )
  return {
    host,
    port,
    /** set explicitly, or undefined: then links go where the service listens (src/config/PublicUrl.ts) */
    publicBaseUrl: Option.getOrUndefined(yield* Config.option(url("SERVICE_PUBLIC_BASE_URL"))),
    role: (yield* Config.literal("all", "api", "worker")("SERVICE_ROLE").pipe(Config.withDefault("all"))) as Role,
    logLevel: yield* Config.option(Config.logLevel("SERVICE_LOG_LEVEL")),
    database: yield* databaseConfig(dataDir),
    /** SIGTERM/SIGINT drain within this many seconds, whatever the database is doing, then exit */
    shutdownTimeoutS: yield* positiveInt("SERVICE_SHUTDOWN_TIMEOUT_S", 25),
    auth: yield* authConfig(jwksUrl, jwksFile),
    dashboard: yield* dashboardConfig,
    credits: yield* creditsConfig,
    limits: yield* limitsConfig,
    ai: yield* aiConfig,
    email: yield* emailConfig,
    worker: yield* workerConfig,
    mcp: {
      /** origins (scheme://host[:port]) allowed to call /mcp besides loopback ones; `*` allows any */
      allowedOrigins: yield* csv("SERVICE_MCP_ALLOWED_ORIGINS", "")
    },
    signing: {
      /** a private JWK (Ed25519 or P-256); unset: one generated under SERVICE_DATA_DIR on first start and kept */
      keyFile: yield* Config.option(Config.string("SERVICE_SIGNING_KEY_FILE"))
    },
    exports: yield* exportsConfig(dataDir),
    otlpEndpoint: yield* Config.option(url("OTEL_EXPORTER_OTLP_ENDPOINT"))
  }
})

export type AppConfigShape = Effect.Effect.Success<typeof appConfig>

export class AppConfig extends Context.Tag("rubr/AppConfig")<AppConfig, AppConfigShape>() {
  static readonly layer = Layer.effect(AppConfig, appConfig)
}
