#include "services/engine/charges/Money.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// ISO 4217's codes in use, by the decimals of their minor unit (codes of
// funds and metals left out). Most have 2.
constexpr QLatin1StringView NoDecimals[] = {
    "bif"_L1, "clp"_L1, "djf"_L1, "gnf"_L1, "isk"_L1, "jpy"_L1, "kmf"_L1, "krw"_L1,
    "pyg"_L1, "rwf"_L1, "ugx"_L1, "vnd"_L1, "vuv"_L1, "xaf"_L1, "xof"_L1, "xpf"_L1};
constexpr QLatin1StringView ThreeDecimals[] = {"bhd"_L1, "iqd"_L1, "jod"_L1, "kwd"_L1,
                                               "lyd"_L1, "omr"_L1, "tnd"_L1};
constexpr QLatin1StringView TwoDecimals[] = {
    "aed"_L1, "afn"_L1, "all"_L1, "amd"_L1, "ang"_L1, "aoa"_L1, "ars"_L1, "aud"_L1, "awg"_L1,
    "azn"_L1, "bam"_L1, "bbd"_L1, "bdt"_L1, "bgn"_L1, "bmd"_L1, "bnd"_L1, "bob"_L1, "brl"_L1,
    "bsd"_L1, "btn"_L1, "bwp"_L1, "byn"_L1, "bzd"_L1, "cad"_L1, "cdf"_L1, "chf"_L1, "cny"_L1,
    "cop"_L1, "crc"_L1, "cup"_L1, "cve"_L1, "czk"_L1, "dkk"_L1, "dop"_L1, "dzd"_L1, "egp"_L1,
    "ern"_L1, "etb"_L1, "eur"_L1, "fjd"_L1, "fkp"_L1, "gbp"_L1, "gel"_L1, "ghs"_L1, "gip"_L1,
    "gmd"_L1, "gtq"_L1, "gyd"_L1, "hkd"_L1, "hnl"_L1, "htg"_L1, "huf"_L1, "idr"_L1, "ils"_L1,
    "inr"_L1, "irr"_L1, "jmd"_L1, "kes"_L1, "kgs"_L1, "khr"_L1, "kpw"_L1, "kyd"_L1, "kzt"_L1,
    "lak"_L1, "lbp"_L1, "lkr"_L1, "lrd"_L1, "lsl"_L1, "mad"_L1, "mdl"_L1, "mga"_L1, "mkd"_L1,
    "mmk"_L1, "mnt"_L1, "mop"_L1, "mru"_L1, "mur"_L1, "mvr"_L1, "mwk"_L1, "mxn"_L1, "myr"_L1,
    "mzn"_L1, "nad"_L1, "ngn"_L1, "nio"_L1, "nok"_L1, "npr"_L1, "nzd"_L1, "pab"_L1, "pen"_L1,
    "pgk"_L1, "php"_L1, "pkr"_L1, "pln"_L1, "qar"_L1, "ron"_L1, "rsd"_L1, "rub"_L1, "sar"_L1,
    "sbd"_L1, "scr"_L1, "sdg"_L1, "sek"_L1, "sgd"_L1, "shp"_L1, "sle"_L1, "sos"_L1, "srd"_L1,
    "ssp"_L1, "stn"_L1, "svc"_L1, "syp"_L1, "szl"_L1, "thb"_L1, "tjs"_L1, "tmt"_L1, "top"_L1,
    "try"_L1, "ttd"_L1, "twd"_L1, "tzs"_L1, "uah"_L1, "usd"_L1, "uyu"_L1, "uzs"_L1, "ves"_L1,
    "wst"_L1, "xcd"_L1, "yer"_L1, "zar"_L1, "zmw"_L1, "zwl"_L1};

template <std::size_t N> bool listed(const QLatin1StringView (&codes)[N], QStringView code)
{
    return std::find(std::begin(codes), std::end(codes), code) != std::end(codes);
}

} // namespace

std::optional<Money> Money::of(QStringView code)
{
    if (listed(TwoDecimals, code))
        return Money(code.toString(), 2);
    if (listed(NoDecimals, code))
        return Money(code.toString(), 0);
    if (listed(ThreeDecimals, code))
        return Money(code.toString(), 3);
    return std::nullopt;
}

// Nano-units in a minor unit (10^7 for cents).
api::Int128 Money::minorStep() const
{
    api::Int128 step = 1;
    for (int d = m_digits; d < api::Decimal::Scale; ++d)
        step *= 10;
    return step;
}

api::Decimal Money::amountOf(qint64 minor) const
{
    return api::Decimal::fromRaw(api::Int128(minor) * minorStep());
}

api::Result<api::Decimal> Money::total(const QList<api::ChargeLine> &lines)
{
    api::Decimal total;
    for (const api::ChargeLine &line : lines) {
        const auto sum = total.sum(line.amount);
        if (!sum)
            return api::ApiError::internal(u"the charges leave the range of sums"_s);
        total = *sum;
    }
    return total;
}

api::Result<qint64> Money::minorOf(api::Decimal amount) const
{
    const api::Int128 minor = amount.raw() / minorStep();
    if (minor > std::numeric_limits<qint64>::max() || minor < std::numeric_limits<qint64>::min())
        return api::ApiError::internal(
            u"the amount %1 is past the range of kept sums (2^63 minor units)"_s.arg(
                amount.toString()));
    return qint64(minor);
}

} // namespace md::engine
