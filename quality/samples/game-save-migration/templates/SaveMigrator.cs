// SaveMigrator.cs - template for a versioned JSON save migration chain.
// Requires Newtonsoft.Json (Unity: com.unity.nuget.newtonsoft-json).
//
// Usage:
//   var result = SaveMigrator.Migrate(rawJson);
//   switch (result.Status) {
//       case MigrationStatus.Ok:           Bind(result.Document); break;   // then ToObject<SaveData>()
//       case MigrationStatus.FromNewerBuild: ShowNewerVersionMessage(); break; // write nothing!
//       case MigrationStatus.Corrupt:      TryLoadBackup(); break;
//   }
//
// Adding a format version:
//   1. Increase CurrentVersion.
//   2. Add a step to Steps keyed by the *old* version, e.g. { 4, V4ToV5 }.
//   3. Add real v4 saves to the test corpus (see references/save-corpus-testing.md).

using System;
using System.Collections.Generic;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

public enum MigrationStatus { Ok, FromNewerBuild, Corrupt }

public sealed class MigrationResult
{
    public MigrationStatus Status { get; }
    public JObject Document { get; }
    public int OriginalVersion { get; }
    public string Error { get; }

    public MigrationResult(MigrationStatus status, JObject document, int originalVersion, string error = null)
    {
        Status = status;
        Document = document;
        OriginalVersion = originalVersion;
        Error = error;
    }
}

public static class SaveMigrator
{
    public const int CurrentVersion = 5;

    // Each step takes a document at version N and returns it at version N + 1.
    // Steps must not touch the disk, the network, or global game state.
    private static readonly Dictionary<int, Func<JObject, JObject>> Steps =
        new Dictionary<int, Func<JObject, JObject>>
        {
            { 0, V0ToV1 },
            { 1, V1ToV2 },
            { 2, V2ToV3 },
            { 3, V3ToV4 },
            { 4, V4ToV5 },
        };

    public static MigrationResult Migrate(string rawJson)
    {
        JObject doc;
        try
        {
            doc = JObject.Parse(rawJson);
        }
        catch (JsonReaderException e)
        {
            return new MigrationResult(MigrationStatus.Corrupt, null, -1, e.Message);
        }

        int original;
        try
        {
            original = ReadVersion(doc);
        }
        catch (Exception e) when (IsDataError(e))
        {
            return new MigrationResult(MigrationStatus.Corrupt, null, -1, e.Message);
        }

        if (original > CurrentVersion)
            return new MigrationResult(MigrationStatus.FromNewerBuild, null, original);

        int version = original;
        try
        {
            while (version < CurrentVersion)
            {
                if (!Steps.TryGetValue(version, out var step))
                    throw new InvalidOperationException($"No migration step from version {version}");
                doc = step(doc);
                int next = ReadVersion(doc);
                if (next != version + 1)
                    throw new InvalidOperationException($"Step from {version} produced version {next}");
                version = next;
            }
        }
        catch (Exception e) when (IsDataError(e))
        {
            return new MigrationResult(MigrationStatus.Corrupt, null, original, e.Message);
        }

        return new MigrationResult(MigrationStatus.Ok, doc, original);
    }

    // Exceptions that mean "this file's data is not what the step expected".
    // Anything else (a NullReferenceException from a buggy step, out of memory) should surface
    // as a crash report rather than be hidden as "corrupt save".
    private static bool IsDataError(Exception e) =>
        e is InvalidOperationException || e is FormatException || e is ArgumentException ||
        e is InvalidCastException || e is OverflowException;

    // Saves written before versioning existed have no "version" field: treat them as 0.
    private static int ReadVersion(JObject doc)
    {
        JToken token = doc["version"];
        if (token == null || token.Type == JTokenType.Null)
            return 0;
        if (token.Type != JTokenType.Integer)
            throw new FormatException("version field is not an integer");
        return token.Value<int>();
    }

    // ---- Steps. Keep each one small. Never delete fields you don't own. ----

    private static JObject V0ToV1(JObject s)
    {
        s["version"] = 1;
        return s;
    }

    private static JObject V1ToV2(JObject s)
    {
        // Example: play time moved from seconds (int) to milliseconds (long).
        long seconds = s.Value<long?>("playTime") ?? 0;
        s["playTimeMs"] = seconds * 1000;
        s.Remove("playTime");
        s["version"] = 2;
        return s;
    }

    private static JObject V2ToV3(JObject s)
    {
        // Example: new optional settings object; default it explicitly.
        if (s["settings"] == null)
            s["settings"] = new JObject { ["subtitles"] = true };
        s["version"] = 3;
        return s;
    }

    private static JObject V3ToV4(JObject s)
    {
        // Example: "gold" renamed to "coins".
        if (s["gold"] != null)
        {
            s["coins"] = s["gold"];
            s.Remove("gold");
        }
        s["version"] = 4;
        return s;
    }

    private static JObject V4ToV5(JObject s)
    {
        // Example: inventory list becomes a map of itemId -> count.
        if (s["inventory"] is JArray items)
        {
            var map = new JObject();
            foreach (JToken item in items)
            {
                string id = item.Value<string>("id");
                if (string.IsNullOrEmpty(id))
                    continue;
                int count = item.Value<int?>("count") ?? 1;
                map[id] = (map.Value<int?>(id) ?? 0) + count;
            }
            s["inventory"] = map;
        }
        s["version"] = 5;
        return s;
    }
}
