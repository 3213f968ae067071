#include "services/api/Promotion.h"

#include "services/api/TextRule.h"
#include "services/api/WireCodec.h"

#include <QSet>

#include <tuple>

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, DiffChange> ChangeWords[] = {
    {"added"_L1, DiffChange::Added},
    {"removed"_L1, DiffChange::Removed},
    {"changed"_L1, DiffChange::Changed}};

// {products: [...], rewards: [...]}, the shape of every body here.
template <typename P, typename R>
void writeLists(JsonWriter &writer, const QList<P> &products, const QList<R> &rewards)
{
    writer.beginObject().key("products"_L1);
    writeList(writer, products);
    writer.key("rewards"_L1);
    writeList(writer, rewards);
    writer.endObject();
}

// The two records of {id, <first>: record or null, <second>: record or null}.
template <typename Record>
std::pair<std::optional<Record>, std::optional<Record>>
readIdPair(const JsonReader &reader, QLatin1StringView first, QLatin1StringView second)
{
    return {readNullable<Record>(reader.field(first)), readNullable<Record>(reader.field(second))};
}

// {id, <first>: record or null, <second>: record or null}.
template <typename Record>
void writeIdPair(JsonWriter &writer, const QString &id, QLatin1StringView first,
                 const std::optional<Record> &a, QLatin1StringView second,
                 const std::optional<Record> &b)
{
    writer.beginObject().field("id"_L1, id).key(first);
    writeNullable(writer, a);
    writer.key(second);
    writeNullable(writer, b);
    writer.endObject();
}

// What production becomes is held to the free-text rule, its names and group
// read again here: the record decoders also read records stored before it.
void holdText(const JsonReader &to, const Product &)
{
    to.field("name"_L1).freeText(MaxNameLength);
    if (const JsonReader group = to.field("group"_L1); !group.isNull())
        group.freeText(MaxNameLength);
}

void holdText(const JsonReader &to, const RewardEntry &reward)
{
    const bool coupon = std::holds_alternative<CouponRecord>(reward.reward);
    to.field(coupon ? "coupon"_L1 : "feature_grant"_L1).field("name"_L1).freeText(MaxNameLength);
}

// Each id at most once, and a step's `to` under the id it is for.
template <typename Record>
void checkSteps(const JsonReader &list, const QList<PromotionStep<Record>> &steps)
{
    if (steps.size() > EnvironmentPromotion::MaxSteps && list.ok())
        list.fail(u"at most %1 steps; promote the rest in another call"_s.arg(
            EnvironmentPromotion::MaxSteps));
    QSet<QString> seen;
    for (qsizetype i = 0; i < steps.size() && list.ok(); ++i) {
        const PromotionStep<Record> &step = steps.at(i);
        if (seen.contains(step.id))
            list.fail(
                u"[%1].id: \"%2\" is promoted once already in this list"_s.arg(i).arg(step.id));
        seen.insert(step.id);
        for (const auto &[name, record] :
             {std::pair{u"to"_s, &step.to}, std::pair{u"production"_s, &step.production}})
            if (*record && idOf(**record) != step.id)
                list.fail(u"[%1].%2: its id \"%3\" is not the step's id \"%4\""_s.arg(i).arg(
                    name, idOf(**record), step.id));
    }
}

} // namespace

QLatin1StringView toWire(DiffChange value)
{
    return wordOf(ChangeWords, value);
}

QString idOf(const Product &product)
{
    return product.id;
}

QString idOf(const RewardEntry &reward)
{
    return std::visit([](const auto &record) { return record.id; }, reward.reward);
}

FieldDifference FieldDifference::read(const JsonReader &reader)
{
    reader.object();
    FieldDifference difference;
    difference.field = reader.field("field"_L1).string();
    difference.sandbox = reader.field("sandbox"_L1).raw();
    difference.production = reader.field("production"_L1).raw();
    return difference;
}

void FieldDifference::write(JsonWriter &writer) const
{
    writer.beginObject().field("field"_L1, field);
    for (const auto &[name, value] :
         {std::pair{"sandbox"_L1, &sandbox}, std::pair{"production"_L1, &production}})
        if (!value->isUndefined()) {
            writer.key(name);
            value->write(writer);
        }
    writer.endObject();
}

template <typename Record> DiffEntry<Record> DiffEntry<Record>::read(const JsonReader &reader)
{
    reader.object();
    DiffEntry entry;
    entry.id = reader.field("id"_L1).string();
    entry.change = reader.field("change"_L1).word(ChangeWords);
    entry.sandbox = readNullable<Record>(reader.field("sandbox"_L1));
    entry.production = readNullable<Record>(reader.field("production"_L1));
    entry.fields = readList<FieldDifference>(reader.field("fields"_L1));
    return entry;
}

template <typename Record> void DiffEntry<Record>::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("change"_L1, toWire(change)).key("sandbox"_L1);
    writeNullable(writer, sandbox);
    writer.key("production"_L1);
    writeNullable(writer, production);
    writer.key("fields"_L1);
    writeList(writer, fields);
    writer.endObject();
}

EnvironmentDiffRequest EnvironmentDiffRequest::read(const JsonReader &reader)
{
    reader.object();
    return {};
}

void EnvironmentDiffRequest::write(JsonWriter &writer) const
{
    writer.beginObject().endObject();
}

EnvironmentDiff EnvironmentDiff::read(const JsonReader &reader)
{
    reader.object();
    EnvironmentDiff diff;
    diff.products = readList<DiffEntry<Product>>(reader.field("products"_L1));
    diff.rewards = readList<DiffEntry<RewardEntry>>(reader.field("rewards"_L1));
    return diff;
}

void EnvironmentDiff::write(JsonWriter &writer) const
{
    writeLists(writer, products, rewards);
}

template <typename Record>
PromotionStep<Record> PromotionStep<Record>::read(const JsonReader &reader)
{
    reader.object();
    PromotionStep step;
    step.id = reader.field("id"_L1).identifier();
    std::tie(step.production, step.to) = readIdPair<Record>(reader, "production"_L1, "to"_L1);
    if (step.to && reader.ok())
        holdText(reader.field("to"_L1), *step.to);
    return step;
}

template <typename Record> void PromotionStep<Record>::write(JsonWriter &writer) const
{
    writeIdPair(writer, id, "production"_L1, production, "to"_L1, to);
}

EnvironmentPromotion EnvironmentPromotion::read(const JsonReader &reader)
{
    reader.object();
    EnvironmentPromotion promotion;
    const JsonReader products = reader.field("products"_L1);
    const JsonReader rewards = reader.field("rewards"_L1);
    if (!products.isMissing())
        promotion.products = readList<PromotionStep<Product>>(products);
    if (!rewards.isMissing())
        promotion.rewards = readList<PromotionStep<RewardEntry>>(rewards);
    checkSteps(products, promotion.products);
    checkSteps(rewards, promotion.rewards);
    if (reader.ok() && promotion.products.isEmpty() && promotion.rewards.isEmpty())
        reader.fail(u"products, rewards: name at least one product or reward to promote"_s);
    return promotion;
}

void EnvironmentPromotion::write(JsonWriter &writer) const
{
    writeLists(writer, products, rewards);
}

template <typename Record>
PromotedEntry<Record> PromotedEntry<Record>::read(const JsonReader &reader)
{
    reader.object();
    PromotedEntry entry;
    entry.id = reader.field("id"_L1).string();
    std::tie(entry.before, entry.after) = readIdPair<Record>(reader, "before"_L1, "after"_L1);
    return entry;
}

template <typename Record> void PromotedEntry<Record>::write(JsonWriter &writer) const
{
    writeIdPair(writer, id, "before"_L1, before, "after"_L1, after);
}

EnvironmentPromoted EnvironmentPromoted::read(const JsonReader &reader)
{
    reader.object();
    EnvironmentPromoted promoted;
    promoted.products = readList<PromotedEntry<Product>>(reader.field("products"_L1));
    promoted.rewards = readList<PromotedEntry<RewardEntry>>(reader.field("rewards"_L1));
    return promoted;
}

void EnvironmentPromoted::write(JsonWriter &writer) const
{
    writeLists(writer, products, rewards);
}

namespace {

template <typename Record>
QList<PromotionStep<Record>> stepsFor(const QList<DiffEntry<Record>> &entries,
                                      const QStringList &ids)
{
    QList<PromotionStep<Record>> steps;
    for (const DiffEntry<Record> &entry : entries)
        if (ids.contains(entry.id))
            steps.append({entry.id, entry.production, entry.sandbox});
    return steps;
}

template <typename Record>
QList<PromotionStep<Record>> stepsBack(const QList<PromotedEntry<Record>> &entries)
{
    QList<PromotionStep<Record>> steps;
    for (const PromotedEntry<Record> &entry : entries)
        steps.append({entry.id, entry.after, entry.before});
    return steps;
}

} // namespace

EnvironmentPromotion EnvironmentDiff::promotion(const QStringList &productIds,
                                                const QStringList &rewardIds) const
{
    return {stepsFor(products, productIds), stepsFor(rewards, rewardIds)};
}

EnvironmentPromotion EnvironmentPromoted::undoing() const
{
    return {stepsBack(products), stepsBack(rewards)};
}

template struct DiffEntry<Product>;
template struct DiffEntry<RewardEntry>;
template struct PromotionStep<Product>;
template struct PromotionStep<RewardEntry>;
template struct PromotedEntry<Product>;
template struct PromotedEntry<RewardEntry>;

} // namespace md::api
