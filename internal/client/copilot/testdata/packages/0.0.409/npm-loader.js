parseInt(process.versions.node.split(".")[0],10)<24
