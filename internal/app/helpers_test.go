package app

import "vouch/store/storetest"

// roleDefinition is storetest's role definition "notes".
const roleDefinition = storetest.RoleDefinition
