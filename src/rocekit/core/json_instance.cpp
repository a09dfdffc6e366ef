// The one explicit instantiation of nlohmann::json (see json_instance.hpp).
#include "rocekit/core/json_instance.hpp"

template class nlohmann::basic_json<>;
