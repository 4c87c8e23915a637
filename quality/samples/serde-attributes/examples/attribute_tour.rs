//! A runnable tour of the serde attributes in SKILL.md.
//!
//! Copy into a crate with
//!     serde = { version = "1", features = ["derive"] }
//!     serde_json = "1"
//! as `examples/attribute_tour.rs`, then `cargo run --example attribute_tour`.
//! Every claim is an assert, so a silent behaviour change fails loudly.

use serde::{Deserialize, Serialize};
use serde_json::json;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::time::Duration;

// ---------------------------------------------------------------------------
// Container + field basics: renaming, optional fields, defaults, aliases.
// ---------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct User {
    user_id: u64,
    #[serde(alias = "name")] // accept the old key on input; always write "displayName"
    display_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    avatar_url: Option<String>,
    #[serde(default = "default_locale")]
    locale: String,
    #[serde(skip)] // never read or written; must implement Default
    cached_score: u32,
}

fn default_locale() -> String {
    "en-US".to_owned()
}

fn user_basics() {
    let u: User = serde_json::from_value(json!({"userId": 7, "name": "Ada"})).unwrap();
    assert_eq!(u.display_name, "Ada");
    assert_eq!(u.locale, "en-US");
    assert_eq!(u.avatar_url, None);

    // Absent Option is omitted on output, not written as null.
    assert_eq!(
        serde_json::to_value(&u).unwrap(),
        json!({"userId": 7, "displayName": "Ada", "locale": "en-US"})
    );

    // deny_unknown_fields turns a typo into an error instead of a silent drop.
    let err = serde_json::from_value::<User>(json!({"userId": 7, "displayName": "A", "locle": "fr"}))
        .unwrap_err();
    assert!(err.to_string().contains("unknown field `locle`"));
}

// ---------------------------------------------------------------------------
// Enum representations.
// ---------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum External {
    Click { x: i32, y: i32 },
    Quit,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Internal {
    Click { x: i32, y: i32 },
    KeyPress { key: String },
    Quit,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Move(i32, i32),
    Say(String),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum IdOrName {
    Id(u64),
    Name(String),
}

fn enums() {
    assert_eq!(
        serde_json::to_value(External::Click { x: 1, y: 2 }).unwrap(),
        json!({"Click": {"x": 1, "y": 2}})
    );
    assert_eq!(serde_json::to_value(External::Quit).unwrap(), json!("Quit"));

    assert_eq!(
        serde_json::to_value(Internal::KeyPress { key: "q".into() }).unwrap(),
        json!({"type": "key_press", "key": "q"})
    );
    assert_eq!(serde_json::to_value(Internal::Quit).unwrap(), json!({"type": "quit"}));

    assert_eq!(
        serde_json::to_value(Adjacent::Move(3, 4)).unwrap(),
        json!({"t": "Move", "c": [3, 4]})
    );

    assert_eq!(serde_json::from_value::<IdOrName>(json!(42)).unwrap(), IdOrName::Id(42));
    assert_eq!(
        serde_json::from_value::<IdOrName>(json!("ada")).unwrap(),
        IdOrName::Name("ada".into())
    );
    // The error for untagged enums does not say which variant came closest.
    let err = serde_json::from_value::<IdOrName>(json!(true)).unwrap_err();
    assert!(err.to_string().contains("did not match any variant"));
}

// ---------------------------------------------------------------------------
// flatten: shared fields and catch-all maps.
// ---------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Pagination {
    page: u32,
    per_page: u32,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct ListUsers {
    #[serde(flatten)]
    pagination: Pagination,
    #[serde(flatten)]
    extra: BTreeMap<String, serde_json::Value>, // everything not matched above
}

fn flatten() {
    let q: ListUsers =
        serde_json::from_value(json!({"page": 2, "per_page": 50, "sort": "name"})).unwrap();
    assert_eq!(q.pagination, Pagination { page: 2, per_page: 50 });
    assert_eq!(q.extra.get("sort"), Some(&json!("name")));
    assert_eq!(
        serde_json::to_value(&q).unwrap(),
        json!({"page": 2, "per_page": 50, "sort": "name"})
    );
}

// ---------------------------------------------------------------------------
// with = "module": custom encoding for one field.
// ---------------------------------------------------------------------------

mod duration_secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_secs)
    }
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct RetryPolicy {
    #[serde(with = "duration_secs")]
    timeout: Duration,
    max_attempts: u8,
}

fn with_module() {
    let p = RetryPolicy { timeout: Duration::from_secs(30), max_attempts: 3 };
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v, json!({"timeout": 30, "max_attempts": 3}));
    assert_eq!(serde_json::from_value::<RetryPolicy>(v).unwrap(), p);
}

// ---------------------------------------------------------------------------
// transparent and try_from: newtypes with validation.
// ---------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
struct OrderId(u64);

// `into` needs Clone: serialize only has &self, so serde clones then converts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Email(String);

impl TryFrom<String> for Email {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if s.contains('@') {
            Ok(Email(s))
        } else {
            Err(format!("not an email address: {s}"))
        }
    }
}

impl From<Email> for String {
    fn from(e: Email) -> String {
        e.0
    }
}

fn newtypes() {
    assert_eq!(serde_json::to_value(OrderId(9)).unwrap(), json!(9));
    assert_eq!(serde_json::from_value::<OrderId>(json!(9)).unwrap(), OrderId(9));

    assert!(serde_json::from_value::<Email>(json!("a@b.example")).is_ok());
    let err = serde_json::from_value::<Email>(json!("nope")).unwrap_err();
    assert!(err.to_string().contains("not an email address"));
}

// ---------------------------------------------------------------------------
// borrow: zero-copy when possible, owned when the input has escapes.
// ---------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct LogLine<'a> {
    #[serde(borrow)]
    msg: Cow<'a, str>,
}

fn borrowing() {
    let plain = r#"{"msg": "hello"}"#;
    let escaped = r#"{"msg": "line\nbreak"}"#;
    let a: LogLine = serde_json::from_str(plain).unwrap();
    let b: LogLine = serde_json::from_str(escaped).unwrap();
    assert!(matches!(a.msg, Cow::Borrowed(_)));
    assert!(matches!(b.msg, Cow::Owned(_))); // a plain &str field would have failed here
}

fn main() {
    user_basics();
    enums();
    flatten();
    with_module();
    newtypes();
    borrowing();
    println!("all serde attribute checks passed");
}
