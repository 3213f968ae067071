#include "services/api/SandboxClock.h"

namespace md::api {

using namespace Qt::StringLiterals;

ClockReading ClockReading::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("now"_L1).integer(), reader.field("offset_ms"_L1).integer()};
}

void ClockReading::write(JsonWriter &writer) const
{
    writer.beginObject().field("now"_L1, now).field("offset_ms"_L1, offsetMs).endObject();
}

ClockAdvance ClockAdvance::read(const JsonReader &reader)
{
    reader.object();
    ClockAdvance advance;
    advance.to = reader.field("to"_L1).integer(1);
    advance.dryRun = reader.field("dry_run"_L1).optBoolean().value_or(false);
    return advance;
}

void ClockAdvance::write(JsonWriter &writer) const
{
    writer.beginObject().field("to"_L1, to).field("dry_run"_L1, dryRun).endObject();
}

ClockFeatureEffect ClockFeatureEffect::read(const JsonReader &reader)
{
    reader.object();
    ClockFeatureEffect effect;
    effect.featureId = reader.field("feature_id"_L1).string();
    effect.resets = reader.field("resets"_L1).integer();
    effect.rollovers = reader.field("rollovers"_L1).integer();
    effect.expiries = reader.field("expiries"_L1).integer();
    effect.restored = reader.field("restored"_L1).sum();
    effect.rolledOver = reader.field("rolled_over"_L1).sum();
    effect.expired = reader.field("expired"_L1).sum();
    return effect;
}

void ClockFeatureEffect::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("feature_id"_L1, featureId)
        .field("resets"_L1, resets)
        .field("rollovers"_L1, rollovers)
        .field("expiries"_L1, expiries)
        .field("restored"_L1, restored)
        .field("rolled_over"_L1, rolledOver)
        .field("expired"_L1, expired)
        .endObject();
}

ClockApplied ClockApplied::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("resets"_L1).integer(), reader.field("rollovers"_L1).integer(),
            reader.field("expiries"_L1).integer(), reader.field("periods"_L1).integer()};
}

void ClockApplied::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("resets"_L1, resets)
        .field("rollovers"_L1, rollovers)
        .field("expiries"_L1, expiries)
        .field("periods"_L1, periods)
        .endObject();
}

ClockAdvanced ClockAdvanced::read(const JsonReader &reader)
{
    reader.object();
    ClockAdvanced advanced;
    advanced.now = reader.field("now"_L1).integer();
    advanced.dryRun = reader.field("dry_run"_L1).boolean();
    advanced.applied = ClockApplied::read(reader.field("applied"_L1));
    advanced.byFeature = readList<ClockFeatureEffect>(reader.field("by_feature"_L1));
    return advanced;
}

void ClockAdvanced::write(JsonWriter &writer) const
{
    writer.beginObject().field("now"_L1, now).field("dry_run"_L1, dryRun).key("applied"_L1);
    applied.write(writer);
    writer.key("by_feature"_L1);
    writeList(writer, byFeature);
    writer.endObject();
}

} // namespace md::api
