#include "views/operator/SandboxClockDialog.h"

#include "models/common/AmountFormat.h"
#include "models/common/FieldWords.h"
#include "models/operator/SandboxClockModel.h"
#include "views/common/EditorPage.h"

#include <QDateTimeEdit>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using models::SandboxClockModel;

SandboxClockDialog::SandboxClockDialog(backend::BillingBackend *backend, QWidget *parent)
    : FormDialog(parent)
    , m_model(new SandboxClockModel(backend, this))
    , m_now(new QLabel(this))
    , m_target(new QDateTimeEdit(this))
    , m_table(new QTableView(this))
    , m_state(new QLabel(this))
{
    setWindowTitle(tr("Sandbox clock"));
    resize(820, 520);
    m_now->setObjectName(QStringLiteral("clockNow"));
    m_now->setText(tr("Reading the sandbox's clock…"));
    m_target->setObjectName(QStringLiteral("clockTarget"));
    m_target->setTimeSpec(Qt::LocalTime);
    m_target->setCalendarPopup(true);
    // Years whole: a two-digit year is read in the century the field shows,
    // so "12/1/26" could mean another century than the one typed.
    QString format = QLocale().dateTimeFormat(QLocale::ShortFormat);
    if (!format.contains(QStringLiteral("yyyy")))
        format.replace(QStringLiteral("yy"), QStringLiteral("yyyy"));
    m_target->setDisplayFormat(format);
    m_target->setEnabled(false);
    m_table->setObjectName(QStringLiteral("clockPreview"));
    m_table->setModel(m_model);
    EditorPage::setUpTable(m_table);
    m_state->setObjectName(QStringLiteral("clockState"));
    m_state->setWordWrap(true);

    auto *dayLater = new QPushButton(tr("+1 &day"), this);
    auto *monthLater = new QPushButton(tr("+1 &month"), this);
    auto *moveTo = new QHBoxLayout;
    moveTo->addWidget(m_target, 1);
    moveTo->addWidget(dayLater);
    moveTo->addWidget(monthLater);
    auto *fields = new QFormLayout;
    fields->addRow(tr("Sandbox now:"), m_now);
    auto *moveLabel = new QLabel(tr("&Move it to:"), this);
    moveLabel->setBuddy(m_target);
    fields->addRow(moveLabel, moveTo);
    auto *form = new QWidget(this);
    auto *layout = new QVBoxLayout(form);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *intro = new QLabel(tr("Try what time does to the sandbox before it happens: every "
                                "reset, rollover and expiry up to the moment you choose, in "
                                "order, as production will do on its own. The clock only "
                                "moves forward."),
                             form);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(fields);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_state);
    setForm(form);
    reviewButton()->setText(tr("Re&view…"));
    saveButton()->setText(tr("Move &clock"));

    // One dry run once the moment stops changing, not one per keystroke.
    m_previewSoon.setSingleShot(true);
    m_previewSoon.setInterval(300);
    connect(&m_previewSoon, &QTimer::timeout, this, [this] {
        if (!m_model->reading() || chosen() <= m_model->reading()->now)
            return; // changes() says why
        m_state->setText(tr("Asking what would fall due…"));
        m_model->preview(chosen());
    });
    connect(m_target, &QDateTimeEdit::dateTimeChanged, this, [this] {
        check();
        m_previewSoon.start();
    });
    connect(dayLater, &QPushButton::clicked, this,
            [this] { m_target->setDateTime(m_target->dateTime().addDays(1)); });
    connect(monthLater, &QPushButton::clicked, this,
            [this] { m_target->setDateTime(m_target->dateTime().addMonths(1)); });
    connect(m_model, &SandboxClockModel::clockRead, this, [this] {
        const QDateTime now = QDateTime::fromMSecsSinceEpoch(m_model->reading()->now);
        m_now->setText(models::formatTimestamp(m_model->reading()->now, locale()));
        // A moment before now is shown as typed and refused in words
        // (changes()); the field clamping it would move it silently.
        m_target->setMinimumDateTime(QDateTime(QDate(2000, 1, 1), QTime(0, 0)));
        m_target->setMaximumDateTime(now.addYears(MaxYearsAhead));
        m_target->setEnabled(true);
        m_target->setDateTime(now.addMonths(1));
        m_target->setFocus();
    });
    connect(m_model, &models::ListTableModel::loaded, this, [this] {
        m_state->setText(SandboxClockModel::summary(m_model->previewed()->applied));
        m_table->resizeColumnsToContents();
        check();
    });
    connect(m_model, &models::ListTableModel::failed, this, [this](const api::ApiError &error) {
        m_state->setText(error.code == QLatin1StringView("sandbox_only")
                             ? tr("This workspace is production: its clock is the real time "
                                  "and cannot be moved. Connect with a sandbox key to try it.")
                             : models::FieldWords::sentence(error));
        check();
    });
    m_model->readClock();
    check();
}

qint64 SandboxClockDialog::chosen() const
{
    return m_target->dateTime().toMSecsSinceEpoch();
}

QString SandboxClockDialog::changes(QList<models::FieldChange> *changes)
{
    if (!m_model->reading())
        return {};
    if (chosen() <= m_model->reading()->now)
        return tr("The clock only moves forward: choose a moment after %1.")
            .arg(models::formatTimestamp(m_model->reading()->now, locale()));
    const auto &previewed = m_model->previewed();
    if (!previewed || m_model->previewedTo() != chosen())
        return tr("Wait for the preview of the moment chosen.");
    const QLocale here = locale();
    changes->append({tr("Sandbox now"), models::formatTimestamp(m_model->reading()->now, here),
                     models::formatTimestamp(chosen(), here)});
    changes->append(
        {tr("What falls due"), QString(), SandboxClockModel::summary(previewed->applied)});
    for (const api::ClockFeatureEffect &effect : previewed->byFeature)
        changes->append({effect.featureId, QString(),
                         tr("%n reset(s) giving back %1", nullptr, int(effect.resets))
                                 .arg(models::formatAmount(effect.restored, here)) +
                             tr(", %1 rolled over, %2 expired")
                                 .arg(models::formatAmount(effect.rolledOver, here),
                                      models::formatAmount(effect.expired, here))});
    return {};
}

void SandboxClockDialog::submit()
{
    m_state->setText(tr("Moving the clock and applying what falls due…"));
    m_model->advance(chosen()).then(this, [this](const api::Result<api::ClockAdvanced> &answer) {
        if (!answer) {
            saveFailed(answer.error());
            return;
        }
        Q_EMIT advanced(answer.value());
        accept();
    });
}

} // namespace md::views
