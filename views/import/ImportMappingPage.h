// Step 2 (CSV): what each column is (customer id, name, email, processor
// ids, plan, status, or a feature's usage) and what else it also is (one
// column may feed two fields), with its first value beside it; what the
// plan column's values stand for (Plan values…); mappings, plan values
// included, can be saved as named profiles and reused.
#pragma once

#include <QMap>
#include <QWizardPage>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace md::models {
class ImportSession;
struct CsvMapping;
} // namespace md::models

namespace md::views {

class PlanValuesDialog;

class ImportMappingPage final : public QWizardPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportMappingPage)

public:
    explicit ImportMappingPage(models::ImportSession *session);

    void initializePage() override;
    bool isComplete() const override;
    // The mapping the table shows; setting it reads the batch with it.
    models::CsvMapping mapping() const;
    void setMapping(const models::CsvMapping &mapping);
    // Applies a saved profile; false when there is none of that name.
    bool applyProfile(const QString &name);
    void saveProfile(const QString &name);
    // Plan values…: opens the dialog; its OK applies the values.
    PlanValuesDialog *editPlanValues();

private:
    void mappingEdited();
    void reloadProfiles();

    models::ImportSession *m_session;
    QTableWidget *m_columns;
    QComboBox *m_profiles;
    QLabel *m_status;
    QPushButton *m_planValuesButton;
    QMap<QString, QString> m_planValues; // the mapping's, which the table does not show
    bool m_showing = false;
};

} // namespace md::views
